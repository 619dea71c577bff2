import type { StoredEvent } from './chaos-stack';

const REMINDER = 'escalation.reminder.fired.v1';
const ALARM_OPENED = 'escalation.alarm.opened.v1';
const ALARM_ESCALATED = 'escalation.alarm.escalated.v1';
const NOTIFICATION = 'escalation.notification.requested.v1';

/** One step escalation took, named so that the same step fired twice gets the same key. */
export interface FiredStep {
  key: string;
  subject: string;
  userId?: number;
  /** When the step was due (reminders: the deadline minus the lead; missed: the deadline). */
  dueAt?: number;
  firedAt: number;
}

const ms = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : NaN);

/**
 * The identity of the step an escalation event records: a reminder per (worker, deadline, lead), a
 * missed check-in per (worker, deadline), an alarm step per (alarm, step), a message per (what it
 * is for, channel, recipient, worker or alarm). Ids that change on every firing (event, request,
 * alarm ids of a second alarm) are left out on purpose: they would hide a double fire.
 */
export function stepOf(e: StoredEvent): FiredStep | undefined {
  const d = e.data;
  switch (e.subject) {
    case REMINDER: {
      const dueAt = ms(d.dueAt);
      return {
        key: `reminder|${d.userId}|${dueAt}|${d.minutesBefore}`,
        subject: e.subject,
        userId: d.userId as number,
        dueAt: dueAt - (d.minutesBefore as number) * 60_000,
        firedAt: ms(d.firedAt),
      };
    }
    case ALARM_OPENED:
      return d.kind === 'missed_check_in'
        ? {
            key: `missed|${d.userId}|${ms(d.dueAt)}`,
            subject: e.subject,
            userId: d.userId as number,
            dueAt: ms(d.dueAt),
            firedAt: ms(d.openedAt),
          }
        : { key: `emergency|${d.alarmId}`, subject: e.subject, userId: d.userId as number, firedAt: ms(d.openedAt) };
    case ALARM_ESCALATED:
      return { key: `alarm-step|${d.alarmId}|${d.step}|${d.action}`, subject: e.subject, userId: d.userId as number, firedAt: ms(d.at) };
    case NOTIFICATION: {
      const to = d.toPhone ?? (d.toUserId !== undefined ? `user:${d.toUserId}` : `role:${d.toRole}`);
      const about = d.alarmId !== undefined ? `alarm:${d.alarmId}` : `worker:${d.userId}`;
      const userId = d.userId as number | undefined;
      return { key: `message|${d.purpose}|${d.channel}|${to}|${about}`, subject: e.subject, userId, firedAt: ms(e.occurredAt) };
    }
    default:
      return undefined;
  }
}

/**
 * The steps the events record. A request asked for again with its own request id (escalation's
 * request tracking, when notifications has not confirmed it) is the same request, not a second
 * step: only its first event counts.
 */
export function firedSteps(events: StoredEvent[]): FiredStep[] {
  const requests = new Set<string>();
  const firsts = events.filter((e) => {
    if (e.subject !== NOTIFICATION) return true;
    const id = String(e.data.requestId);
    if (requests.has(id)) return false;
    requests.add(id);
    return true;
  });
  return firsts.map(stepOf).filter((s): s is FiredStep => s !== undefined);
}

/** Keys that fired more than once, with their count; empty when every step fired at most once. */
export function duplicateSteps(steps: FiredStep[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const s of steps) counts.set(s.key, (counts.get(s.key) ?? 0) + 1);
  return Object.fromEntries([...counts].filter(([, n]) => n > 1));
}

/** Event ids that occur more than once (the relay or the stream repeated one). */
export function duplicateIds(events: StoredEvent[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const e of events) (seen.has(e.id) ? dup : seen).add(e.id);
  return [...dup];
}

/**
 * Request ids used for two different requests: notifications takes each id once, so a reused one
 * would swallow a message. The same request asked for again (same id, same content) is not one.
 */
export function duplicateRequestIds(events: StoredEvent[]): string[] {
  const content = new Map<string, string>();
  const reused = new Set<string>();
  for (const e of events.filter((x) => x.subject === NOTIFICATION)) {
    const id = String(e.data.requestId);
    const data = JSON.stringify(e.data);
    if (content.has(id) && content.get(id) !== data) reused.add(id);
    else content.set(id, data);
  }
  return [...reused];
}

export function missedCheckIns(steps: FiredStep[]): FiredStep[] {
  return steps.filter((s) => s.key.startsWith('missed|'));
}

export function reminders(steps: FiredStep[], minutesBefore: 5 | 2): FiredStep[] {
  return steps.filter((s) => s.key.startsWith('reminder|') && s.key.endsWith(`|${minutesBefore}`));
}

/** Steps concerning these workers (reminders, missed check-ins, alarm steps and messages about them). */
export function stepsFor(steps: FiredStep[], userIds: Iterable<number>): FiredStep[] {
  const ids = new Set(userIds);
  return steps.filter((s) => s.userId !== undefined && ids.has(s.userId));
}

/** How late each step fired after it was due, in ms (negative: early). */
export function lateness(steps: FiredStep[]): number[] {
  return steps.filter((s) => s.dueAt !== undefined).map((s) => s.firedAt - s.dueAt!);
}
