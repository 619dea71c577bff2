/** The steps of one check-in deadline T: reminders at T-5 and T-2 minutes, then the missed check-in at T. */
export const CHECKIN_STEPS = ['reminder_5min', 'reminder_2min', 'missed'] as const;
export type CheckinStep = (typeof CHECKIN_STEPS)[number];

const MINUTE = 60_000;
const OFFSET_MS: Record<CheckinStep, number> = { reminder_5min: 5 * MINUTE, reminder_2min: 2 * MINUTE, missed: 0 };

export const minutesBefore = (step: 'reminder_5min' | 'reminder_2min') => (step === 'reminder_5min' ? 5 : 2);

export function stepTime(step: CheckinStep, due: Date): Date {
  return new Date(due.getTime() - OFFSET_MS[step]);
}

export const isCheckinStep = (s: string): s is CheckinStep => (CHECKIN_STEPS as readonly string[]).includes(s);

/**
 * The first step of deadline `due` still worth running at `now`: a reminder whose time has
 * passed is skipped (a deadline 1 minute away gets only the missed step), and a deadline already
 * passed is missed at once.
 */
export function firstStep(due: Date, now: Date): { step: CheckinStep; at: Date } {
  for (const step of CHECKIN_STEPS) {
    const at = stepTime(step, due);
    if (step === 'missed' || at.getTime() > now.getTime()) return { step, at };
  }
  return { step: 'missed', at: due };
}

/**
 * What a claimed step does at `now`. A reminder fires only while its own slot is current (before
 * the next step's time); a reminder claimed late (the service was down) gives way to the step
 * whose time it is, so the worker never hears "due in 5 minutes" a minute before the deadline.
 */
export function stepToRun(claimed: CheckinStep, due: Date, now: Date): CheckinStep {
  const order = CHECKIN_STEPS.indexOf(claimed);
  for (let i = order; i < CHECKIN_STEPS.length - 1; i++) {
    if (now.getTime() < stepTime(CHECKIN_STEPS[i + 1], due).getTime()) return CHECKIN_STEPS[i];
  }
  return 'missed';
}

/** The step after a reminder that just ran at `now`. */
export function nextAfter(ran: 'reminder_5min' | 'reminder_2min', due: Date, now: Date): { step: CheckinStep; at: Date } {
  const rest = CHECKIN_STEPS.slice(CHECKIN_STEPS.indexOf(ran) + 1);
  for (const step of rest) {
    const at = stepTime(step, due);
    if (step === 'missed' || at.getTime() > now.getTime()) return { step, at };
  }
  return { step: 'missed', at: due };
}
