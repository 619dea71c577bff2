import { Button, Checkbox, Input, Label, Select } from '@lws/fe-ui';
import { policyTimeline, STEP_ACTION_LABELS, stepOrderProblem } from '@lws/rules';
import type { PolicyStep } from './teams-api';

const ACTIONS = Object.keys(STEP_ACTION_LABELS);
const MAX_STEPS = 20;
const MAX_AFTER_SECONDS = 24 * 3600;

/** Only the fields the server accepts for the step's action (it refuses any other by name). */
export function cleanStep(step: PolicyStep): PolicyStep {
  const base = { action: step.action, after: step.after === 'calls_done' && step.action !== 'message_contacts' ? 0 : step.after };
  switch (step.action) {
    case 'notify_monitor':
    case 'notify_deputy':
      return { ...base, position: step.position ?? 1 };
    case 'call_emergency_numbers':
      return { ...base, unlessAcknowledged: step.unlessAcknowledged ?? true };
    case 'message_contacts':
      return { ...base, callPrimaryContact: step.callPrimaryContact ?? false, unlessAcknowledged: step.unlessAcknowledged ?? false };
    default:
      return base;
  }
}

/** What is wrong with the steps, said before the server is asked; undefined when nothing is. */
export function stepsProblem(steps: PolicyStep[]): string | undefined {
  if (steps.length === 0) return 'Add at least one step';
  if (steps.length > MAX_STEPS) return `At most ${MAX_STEPS} steps`;
  for (const [i, s] of steps.entries()) {
    if (s.after !== 'calls_done' && (!Number.isInteger(s.after) || s.after < 0 || s.after > MAX_AFTER_SECONDS)) {
      return `Step ${i + 1}: the time must be between 0 and 24 hours`;
    }
    if ((s.action === 'notify_monitor' || s.action === 'notify_deputy') && (!Number.isInteger(s.position) || (s.position ?? 0) < 1 || (s.position ?? 0) > 50)) {
      return `Step ${i + 1}: choose a monitor between 1 and 50`;
    }
  }
  return stepOrderProblem(steps)?.message;
}

interface PolicyEditorProps {
  kindLabel: string;
  steps: PolicyStep[];
  onChange: (steps: PolicyStep[]) => void;
  testId: string;
}

/**
 * One alarm kind's steps, in order: action, minutes after the alarm opens (or after the calls),
 * which monitor; with a preview of the timeline the alarm will follow.
 */
export function PolicyEditor({ kindLabel, steps, onChange, testId }: PolicyEditorProps) {
  const set = (i: number, patch: Partial<PolicyStep>) => onChange(steps.map((s, j) => (j === i ? cleanStep({ ...s, ...patch }) : s)));
  const move = (i: number, by: number) => {
    const next = [...steps];
    const [s] = next.splice(i, 1);
    next.splice(i + by, 0, s);
    onChange(next);
  };
  const problem = stepsProblem(steps);
  return (
    <fieldset className="lws-fieldset" data-testid={testId}>
      <legend>{kindLabel}</legend>
      <ol className="lws-list">
        {steps.map((step, i) => (
          <li key={i} className="lws-actions" data-testid="policy-step">
            <Label htmlFor={`${testId}-action-${i}`} className="lws-visually-hidden">
              Step {i + 1} action
            </Label>
            <Select id={`${testId}-action-${i}`} value={step.action} onChange={(e) => set(i, { action: e.target.value })} data-testid="policy-step-action">
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {STEP_ACTION_LABELS[a]}
                </option>
              ))}
            </Select>
            {step.action === 'notify_monitor' || step.action === 'notify_deputy' ? (
              <Input
                type="number"
                min={1}
                max={50}
                aria-label={`Step ${i + 1} monitor number`}
                value={step.position ?? 1}
                onChange={(e) => set(i, { position: Number(e.target.value) })}
                data-testid="policy-step-position"
              />
            ) : null}
            {step.action === 'message_contacts' ? (
              <Checkbox
                label="after the calls"
                checked={step.after === 'calls_done'}
                onChange={(e) => set(i, { after: e.target.checked ? 'calls_done' : 0 })}
              />
            ) : null}
            {step.after !== 'calls_done' ? (
              <Input
                type="number"
                min={0}
                max={1440}
                step="0.5"
                aria-label={`Step ${i + 1} minutes after the alarm opens`}
                value={step.after / 60}
                onChange={(e) => set(i, { after: Math.round(Number(e.target.value) * 60) })}
                data-testid="policy-step-minutes"
              />
            ) : null}
            <span className="lws-muted">min</span>
            <Button size="sm" variant="outline" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move step ${i + 1} up`}>
              ↑
            </Button>
            <Button size="sm" variant="outline" disabled={i === steps.length - 1} onClick={() => move(i, 1)} aria-label={`Move step ${i + 1} down`}>
              ↓
            </Button>
            <Button size="sm" variant="outline" onClick={() => onChange(steps.filter((_, j) => j !== i))} aria-label={`Remove step ${i + 1}`}>
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <Button
        size="sm"
        variant="outline"
        disabled={steps.length >= MAX_STEPS}
        onClick={() => onChange([...steps, { action: 'notify_monitors', after: steps.length ? lastTime(steps) : 0 }])}
        data-testid={`${testId}-add`}
      >
        Add step
      </Button>
      {problem ? (
        <p className="lws-field-error" role="alert" data-testid={`${testId}-problem`}>
          {problem}
        </p>
      ) : (
        <ul className="lws-muted" aria-label={`${kindLabel} timeline`} data-testid={`${testId}-timeline`}>
          {policyTimeline(steps).map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

function lastTime(steps: PolicyStep[]): number {
  const times = steps.map((s) => (s.after === 'calls_done' ? 0 : s.after));
  return Math.max(0, ...times);
}
