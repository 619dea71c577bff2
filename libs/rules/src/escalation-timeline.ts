/**
 * An escalation policy's steps as people read them: the superadmin's editor previews a
 * team's policy as "0:00 notify the team's monitors, 2:00 call the emergency numbers, …". The
 * steps' form is @lws/platform's policyStepSchema; this reads any object of that shape.
 */
export interface TimelineStep {
  action: string;
  /** hand_off: the webhook endpoint's id (the editor shows its name). */
  endpointId?: string;
  after: number | 'calls_done';
  position?: number;
  callPrimaryContact?: boolean;
  unlessAcknowledged?: boolean;
}

export const STEP_ACTION_LABELS: Record<string, string> = {
  notify_worker: 'notify the worker',
  notify_monitors: "notify the team's monitors",
  notify_monitor: 'notify monitor',
  notify_deputy: 'notify the deputy of monitor',
  notify_on_call: 'notify whoever is on call',
  notify_on_call_next: 'notify the next on-call layer',
  notify_organisation: "notify all the organisation's monitors",
  call_emergency_numbers: 'call the emergency numbers',
  message_contacts: 'message the emergency contacts',
  hand_off: 'hand the alarm to a receiving centre',
};

/** Seconds as m:ss, or h:mm:ss from an hour. */
export function clockOffset(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

function describeStep(step: TimelineStep): string {
  const label = STEP_ACTION_LABELS[step.action] ?? step.action;
  const who = step.action === 'notify_monitor' || step.action === 'notify_deputy' ? `${label} ${step.position ?? 1}` : label;
  const extras = [
    step.action === 'message_contacts' && step.callPrimaryContact ? 'and call the primary contact' : '',
    step.unlessAcknowledged ? 'unless acknowledged' : '',
  ].filter(Boolean);
  return [who, ...extras].join(' ');
}

/**
 * One line per step, in the order they run. A step runs at `after` seconds from the alarm opening,
 * but never before the step ahead of it: a later step with an earlier time runs when its turn comes.
 */
export function policyTimeline(steps: readonly TimelineStep[]): string[] {
  let earliest = 0;
  return steps.map((step) => {
    if (step.after === 'calls_done') return `after the calls: ${describeStep(step)}`;
    earliest = Math.max(earliest, step.after);
    return `${clockOffset(earliest)} ${describeStep(step)}`;
  });
}

/**
 * What makes a policy's steps wrong in order, checked where it is saved (the gateway's and
 * identity's schema) and as it is edited: a step that waits for the calls ("after the calls") needs
 * a call step before it, else it would run at once while its timeline said it waits. Undefined
 * when the order is right; `index` is the step at fault.
 */
export function stepOrderProblem(steps: readonly TimelineStep[]): { index: number; message: string } | undefined {
  let calls = false;
  for (const [index, step] of steps.entries()) {
    if (step.after === 'calls_done' && !calls)
      return { index, message: `Step ${index + 1} waits for the calls, but no step before it calls the emergency numbers` };
    if (step.action === 'call_emergency_numbers') calls = true;
  }
  return undefined;
}
