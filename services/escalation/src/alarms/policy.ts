import type { AlarmKind } from '../db/schema';
import { policyOverrideSchema, policyStepSchema, type PolicyAction, type PolicyOverride, type PolicyStep } from '@lws/platform';

// The policy's form is shared: identity validates a team's policy with it (teams, issue 12).
export { policyOverrideSchema, policyStepSchema, type PolicyAction, type PolicyOverride, type PolicyStep };

/** The concrete policy copied onto an alarm when it opens. */
export interface FrozenPolicy {
  steps: PolicyStep[];
  emergencyNumbers: string[];
  callTimeoutSeconds: number;
  /** How long past the call timeout an outcome may take before the watchdog moves on. */
  watchdogMarginSeconds: number;
  repeatAfterSeconds: number;
}

export interface PolicySettings {
  override: PolicyOverride;
  emergencyNumbers: string[];
  callTimeoutSeconds: number;
  ackTimeoutSeconds: number;
  repeatAfterSeconds: number;
}

export const WATCHDOG_MARGIN_SECONDS = 30;
export const DEFAULT_REPEAT_AFTER_SECONDS = 300;

export function defaultSteps(kind: AlarmKind, ackTimeoutSeconds: number): PolicyStep[] {
  if (kind === 'emergency') {
    return [
      { action: 'notify_monitors', after: 0 },
      { action: 'message_contacts', after: 0, callPrimaryContact: true, unlessAcknowledged: false },
      { action: 'call_emergency_numbers', after: ackTimeoutSeconds, unlessAcknowledged: true },
    ];
  }
  return [
    { action: 'notify_worker', after: 0 },
    { action: 'notify_monitors', after: 0 },
    { action: 'call_emergency_numbers', after: ackTimeoutSeconds, unlessAcknowledged: true },
    { action: 'message_contacts', after: 'calls_done', callPrimaryContact: false, unlessAcknowledged: false },
  ];
}

export function freezePolicy(kind: AlarmKind, settings: PolicySettings): FrozenPolicy {
  return {
    steps: settings.override[kind] ?? defaultSteps(kind, settings.ackTimeoutSeconds),
    emergencyNumbers: [...settings.emergencyNumbers],
    callTimeoutSeconds: settings.callTimeoutSeconds,
    watchdogMarginSeconds: WATCHDOG_MARGIN_SECONDS,
    repeatAfterSeconds: settings.override.repeatAfterSeconds ?? settings.repeatAfterSeconds,
  };
}

/**
 * When step `index` of an alarm is due, given that the step before it finished at `now`. Once
 * nobody could be told of the alarm (`nobodyReachedAt`), its calls are not held back for an
 * acknowledgement that cannot come.
 */
export function stepDueAt(policy: FrozenPolicy, index: number, openedAt: Date, now: Date, nobodyReachedAt?: Date | null): Date {
  const step = policy.steps[index];
  if (!step || step.after === 'calls_done') return now;
  let at = openedAt.getTime() + step.after * 1000;
  if (step.action === 'call_emergency_numbers' && nobodyReachedAt) at = Math.min(at, nobodyReachedAt.getTime());
  return new Date(Math.max(at, now.getTime()));
}

/** The call watchdog: a lost outcome moves the round on after the timeout and a margin. */
export function watchdogDueAt(policy: FrozenPolicy, requestedAt: Date): Date {
  return new Date(requestedAt.getTime() + (policy.callTimeoutSeconds + policy.watchdogMarginSeconds) * 1000);
}
