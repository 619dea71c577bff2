import { useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Input, Label, Select, msg, useT, type Translate } from '@lws/fe-ui';
import { clockOffset, STEP_ACTION_LABELS, stepOrderProblem, type TimelineStep } from '@lws/rules';
import { fetchWebhookEndpointNames, WEBHOOK_ENDPOINT_NAMES_KEY, type PolicyStep } from './teams-api';

const ACTIONS = Object.keys(STEP_ACTION_LABELS);
/** The steps' actions as @lws/rules words them (STEP_ACTION_LABELS), marked to translate. */
const ACTION_TEXT: Record<string, string> = {
  notify_worker: msg('notify the worker'),
  notify_monitors: msg("notify the team's monitors"),
  notify_monitor: msg('notify monitor'),
  notify_deputy: msg('notify the deputy of monitor'),
  notify_on_call: msg('notify whoever is on call'),
  notify_on_call_next: msg('notify the next on-call layer'),
  notify_organisation: msg("notify all the organisation's monitors"),
  call_emergency_numbers: msg('call the emergency numbers'),
  message_contacts: msg('message the emergency contacts'),
  hand_off: msg('hand the alarm to a receiving centre'),
};
const actionText = (action: string, t: Translate) =>
  ACTION_TEXT[action] ? t(ACTION_TEXT[action]) : (STEP_ACTION_LABELS[action] ?? action);

/** Webhook endpoints' names by id: a hand-off names the receiving centre it goes to. */
export type EndpointNames = ReadonlyMap<string, string>;
const NO_NAMES: EndpointNames = new Map();

/** A step as the timeline words it (@lws/rules' policyTimeline, in the language shown). */
function describeStep(step: TimelineStep, t: Translate, endpoints: EndpointNames): string {
  const receiver = step.action === 'hand_off' && step.endpointId ? endpoints.get(step.endpointId) : undefined;
  const who =
    step.action === 'notify_monitor'
      ? t('notify monitor {{position}}', { position: step.position ?? 1 })
      : step.action === 'notify_deputy'
        ? t('notify the deputy of monitor {{position}}', { position: step.position ?? 1 })
        : receiver
          ? t('hand the alarm to {{name}}', { name: receiver })
          : actionText(step.action, t);
  const extras = [
    step.action === 'message_contacts' && step.callPrimaryContact ? t('and call the primary contact') : '',
    step.unlessAcknowledged ? t('unless acknowledged') : '',
  ].filter(Boolean);
  return [who, ...extras].join(' ');
}

/**
 * One line per step, in the order they run, as @lws/rules' policyTimeline says them: a step runs at
 * `after` seconds from the alarm opening, but never before the step ahead of it. A hand-off names
 * its endpoint when `endpoints` knows it.
 */
export function timelineLines(steps: readonly TimelineStep[], t: Translate, endpoints: EndpointNames = NO_NAMES): string[] {
  let earliest = 0;
  return steps.map((step) => {
    if (step.after === 'calls_done') return t('after the calls: {{step}}', { step: describeStep(step, t, endpoints) });
    earliest = Math.max(earliest, step.after);
    return `${clockOffset(earliest)} ${describeStep(step, t, endpoints)}`;
  });
}
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
    case 'hand_off':
      // No endpoint yet: stepsProblem names the step, so it is never sent without one.
      return { ...base, ...(step.endpointId ? { endpointId: step.endpointId } : {}), unlessAcknowledged: step.unlessAcknowledged ?? true };
    default:
      return base;
  }
}

/** What is wrong with the steps, said before the server is asked; undefined when nothing is. */
export function stepsProblem(steps: PolicyStep[], t: Translate): string | undefined {
  if (steps.length === 0) return t('Add at least one step');
  if (steps.length > MAX_STEPS) return t('At most {{max}} steps', { max: MAX_STEPS });
  for (const [i, s] of steps.entries()) {
    if (s.after !== 'calls_done' && (!Number.isInteger(s.after) || s.after < 0 || s.after > MAX_AFTER_SECONDS)) {
      return t('Step {{number}}: the time must be between 0 and 24 hours', { number: i + 1 });
    }
    if (
      (s.action === 'notify_monitor' || s.action === 'notify_deputy') &&
      (!Number.isInteger(s.position) || (s.position ?? 0) < 1 || (s.position ?? 0) > 50)
    ) {
      return t('Step {{number}}: choose a monitor between 1 and 50', { number: i + 1 });
    }
    if (s.action === 'hand_off' && !s.endpointId) {
      return t('Step {{number}}: choose the webhook endpoint to hand the alarm to', { number: i + 1 });
    }
  }
  const order = stepOrderProblem(steps);
  return order && t('Step {{number}} waits for the calls, but no step before it calls the emergency numbers', { number: order.index + 1 });
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
  const t = useT();
  // Read only once a step hands off: most policies never need the endpoints.
  const handsOff = steps.some((s) => s.action === 'hand_off');
  const endpointsQuery = useQuery({ queryKey: WEBHOOK_ENDPOINT_NAMES_KEY, queryFn: fetchWebhookEndpointNames, enabled: handsOff });
  const endpoints = endpointsQuery.data ?? [];
  const endpointNames: EndpointNames = new Map(endpoints.map((e) => [e.id, e.name]));
  // A new action starts from its own defaults: a hand-off is sent unless acknowledged, whatever the step was before.
  const set = (i: number, patch: Partial<PolicyStep>) =>
    onChange(
      steps.map((s, j) =>
        j !== i
          ? s
          : cleanStep(
              patch.action && patch.action !== s.action
                ? { action: patch.action, after: s.after, position: s.position }
                : { ...s, ...patch },
            ),
      ),
    );
  const move = (i: number, by: number) => {
    const next = [...steps];
    const [s] = next.splice(i, 1);
    next.splice(i + by, 0, s);
    onChange(next);
  };
  const problem = stepsProblem(steps, t);
  return (
    <fieldset className="lws-fieldset" data-testid={testId}>
      <legend>{kindLabel}</legend>
      <ol className="lws-list">
        {steps.map((step, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a step is its position: every field is controlled and drawn from it, so moving a step moves its values.
          <li key={i} className="lws-actions" data-testid="policy-step">
            <Label htmlFor={`${testId}-action-${i}`} className="lws-visually-hidden">
              {t('Step {{number}} action', { number: i + 1 })}
            </Label>
            <Select
              id={`${testId}-action-${i}`}
              value={step.action}
              onChange={(e) => set(i, { action: e.target.value })}
              data-testid="policy-step-action"
            >
              {ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {actionText(a, t)}
                </option>
              ))}
            </Select>
            {step.action === 'notify_monitor' || step.action === 'notify_deputy' ? (
              <Input
                type="number"
                min={1}
                max={50}
                aria-label={t('Step {{number}} monitor number', { number: i + 1 })}
                value={step.position ?? 1}
                onChange={(e) => set(i, { position: Number(e.target.value) })}
                data-testid="policy-step-position"
              />
            ) : null}
            {step.action === 'hand_off' ? (
              endpointsQuery.isSuccess && endpoints.length === 0 ? (
                <span className="lws-field-error" data-testid="policy-step-no-endpoints">
                  {t('Add a webhook endpoint on the Integrations tab first')}
                </span>
              ) : (
                <>
                  <Select
                    aria-label={t('Step {{number}} webhook endpoint', { number: i + 1 })}
                    value={step.endpointId ?? ''}
                    onChange={(e) => set(i, { endpointId: e.target.value || undefined })}
                    data-testid="policy-step-endpoint"
                  >
                    <option value="">{endpointsQuery.isError ? t('The endpoints could not be loaded') : t('Choose an endpoint…')}</option>
                    {step.endpointId && !endpointNames.has(step.endpointId) ? (
                      <option value={step.endpointId}>
                        {endpointsQuery.isSuccess ? t('An endpoint no longer listed') : t('Loading…')}
                      </option>
                    ) : null}
                    {endpoints.map((e) => (
                      <option key={e.id} value={e.id}>
                        {e.enabled ? e.name : t('{{name}} (disabled)', { name: e.name })}
                      </option>
                    ))}
                  </Select>
                  <Checkbox
                    label={t('unless acknowledged')}
                    checked={step.unlessAcknowledged ?? true}
                    onChange={(e) => set(i, { unlessAcknowledged: e.target.checked })}
                    data-testid="policy-step-unless-acknowledged"
                  />
                </>
              )
            ) : null}
            {step.action === 'message_contacts' ? (
              <Checkbox
                label={t('after the calls')}
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
                aria-label={t('Step {{number}} minutes after the alarm opens', { number: i + 1 })}
                value={step.after / 60}
                onChange={(e) => set(i, { after: Math.round(Number(e.target.value) * 60) })}
                data-testid="policy-step-minutes"
              />
            ) : null}
            <span className="lws-muted">{t('min')}</span>
            <Button
              size="sm"
              variant="outline"
              disabled={i === 0}
              onClick={() => move(i, -1)}
              aria-label={t('Move step {{number}} up', { number: i + 1 })}
            >
              ↑
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={i === steps.length - 1}
              onClick={() => move(i, 1)}
              aria-label={t('Move step {{number}} down', { number: i + 1 })}
            >
              ↓
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => onChange(steps.filter((_, j) => j !== i))}
              aria-label={t('Remove step {{number}}', { number: i + 1 })}
            >
              {t('Remove')}
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
        {t('Add step')}
      </Button>
      {problem ? (
        <p className="lws-field-error" role="alert" data-testid={`${testId}-problem`}>
          {problem}
        </p>
      ) : (
        <ul className="lws-muted" aria-label={t('{{kind}} timeline', { kind: kindLabel })} data-testid={`${testId}-timeline`}>
          {timelineLines(steps, t, endpointNames).map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one line per step, in the steps' order.
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
