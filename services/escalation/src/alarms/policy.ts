import type { AlarmKind, TeamMonitor } from '../db/schema';
import {
  onCallAt,
  policyOverrideSchema,
  policyStepSchema,
  type OnCallPeople,
  type OnCallSchedule,
  type OnCallSegment,
  type PolicyAction,
  type PolicyOverride,
  type PolicyStep,
} from '@lws/platform';

// The policy's form is shared: identity validates a team's policy with it.
export { policyOverrideSchema, policyStepSchema, type PolicyAction, type PolicyOverride, type PolicyStep };

/** The concrete policy copied onto an alarm when it opens. */
export interface FrozenPolicy {
  steps: PolicyStep[];
  emergencyNumbers: string[];
  callTimeoutSeconds: number;
  /** How long past the call timeout an outcome may take before the watchdog moves on. */
  watchdogMarginSeconds: number;
  repeatAfterSeconds: number;
  /** The worker's team's monitors, in order, when the alarm opened; absent: the organisation's (every admin). */
  monitors?: TeamMonitor[];
  /** Who was on call on the team's rota when the alarm opened; absent: the team has no rota. */
  onCall?: FrozenOnCall;
}

/** One person on call, as an alarm keeps them: away deputies are found when the step runs. */
export interface OnCallPerson {
  userId: number;
  layer: number;
  layerName: string;
  /** When their stretch ends. */
  until: string;
}

/** The rota's answer when the alarm opened: who was on call (absent: a gap) and the next layer's person. */
export interface FrozenOnCall {
  now?: OnCallPerson;
  next?: OnCallPerson;
}

/** What a team sets for its alarms (escalation's copy of identity's team). */
export interface TeamPolicy {
  monitors: TeamMonitor[];
  /** ESCALATION_POLICY's form; null: the organisation's. */
  escalationPolicy: unknown;
  /** Empty: the organisation's. */
  emergencyNumbers: string[];
  /** The team's on-call rota; null or absent: none. */
  onCallSchedule?: OnCallSchedule | null;
  /** Its visit types' own policies (null: the team's), by type id. */
  visitTypes?: { id: string; escalationPolicy: unknown }[];
}

/**
 * The team's rules for an alarm opened on a visit of one of its types: the type's own escalation
 * policy in place of the team's, when it has one.
 */
export function forVisitType(team: TeamPolicy | undefined, typeId: string | undefined): TeamPolicy | undefined {
  if (!team || typeId === undefined) return team;
  const own = team.visitTypes?.find((v) => v.id === typeId)?.escalationPolicy;
  return own !== null && own !== undefined ? { ...team, escalationPolicy: own } : team;
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

/** Away is weighed when a step runs (the person's deputy stands in then), not when the rota is read. */
const NOBODY_AWAY: OnCallPeople = { awayUntil: () => undefined, deputyOf: () => undefined };

/**
 * Who is on call for the team at `at`, as an alarm keeps it. A rota that cannot be read (it was
 * checked when saved) answers nobody, so the on-call steps fall back to the team's monitors.
 */
export function frozenOnCall(schedule: OnCallSchedule, at: Date): FrozenOnCall {
  const person = (s: OnCallSegment): OnCallPerson => ({
    userId: s.userId,
    layer: s.layer,
    layerName: schedule.layers[s.layer]?.name ?? '',
    until: s.end.toISOString(),
  });
  try {
    const found = onCallAt(schedule, at, NOBODY_AWAY);
    return { ...(found.now ? { now: person(found.now) } : {}), ...(found.next ? { next: person(found.next) } : {}) };
  } catch {
    return {};
  }
}

/**
 * The policy an alarm keeps whatever changes later: its team's steps where the team sets them, else
 * the organisation's (ESCALATION_POLICY, else the defaults); the team's emergency numbers if it has
 * any; the team's monitors in order; who is on call on the team's rota at `at`, when it has one. A
 * team with a rota and no policy of its own tells whoever is on call where the organisation's steps
 * tell the team's monitors. A team policy that no longer reads as one (it was checked when saved)
 * is ignored, so the alarm still escalates.
 */
export function freezePolicy(kind: AlarmKind, settings: PolicySettings, at: Date, team?: TeamPolicy): FrozenPolicy {
  const parsed = team?.escalationPolicy ? policyOverrideSchema.safeParse(team.escalationPolicy) : undefined;
  const own = parsed?.success ? parsed.data : {};
  const rota = team?.onCallSchedule ?? undefined;
  const organisation = settings.override[kind] ?? defaultSteps(kind, settings.ackTimeoutSeconds);
  const steps =
    own[kind] ??
    (rota
      ? organisation.map((s): PolicyStep => (s.action === 'notify_monitors' ? { action: 'notify_on_call', after: s.after } : s))
      : organisation);
  return {
    steps,
    emergencyNumbers: [...(team && team.emergencyNumbers.length > 0 ? team.emergencyNumbers : settings.emergencyNumbers)],
    callTimeoutSeconds: settings.callTimeoutSeconds,
    watchdogMarginSeconds: WATCHDOG_MARGIN_SECONDS,
    repeatAfterSeconds: own.repeatAfterSeconds ?? settings.override.repeatAfterSeconds ?? settings.repeatAfterSeconds,
    ...(team && team.monitors.length > 0 ? { monitors: team.monitors.map((m) => ({ ...m })) } : {}),
    ...(rota ? { onCall: frozenOnCall(rota, at) } : {}),
  };
}

/**
 * A duress alarm escalates at once: every step that would wait runs when it opens, and
 * nothing goes to the worker, whose phone may be in the hands of the person threatening them.
 */
export function duressPolicy(policy: FrozenPolicy): FrozenPolicy {
  return {
    ...policy,
    steps: policy.steps.filter((s) => s.action !== 'notify_worker').map((s) => (typeof s.after === 'number' ? { ...s, after: 0 } : s)),
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
