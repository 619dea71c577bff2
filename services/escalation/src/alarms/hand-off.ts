import type { EventMap } from '@lws/contracts';
import type { AlarmRow, WorkerRow } from '../db/schema';
import { dialable } from '../workers/phone';

export type AlarmHandOff = NonNullable<EventMap['escalation.notification.requested.v1']['handOff']>;

/**
 * What a receiving centre that has never heard of the worker needs to act: who (name, a phone it
 * can ring, their language), where (the shift's place, "where I'll be", the last position), what
 * happened so far (the history), and how to answer (the alarm's id, for the API).
 */
export function handOffOf(alarm: AlarmRow, worker: WorkerRow | undefined, history: string[], step: number): AlarmHandOff {
  const phone = dialable(worker?.phone);
  const name = alarm.workerName ?? worker?.name;
  const position = worker?.lastPosition;
  return {
    alarmId: alarm.id,
    kind: alarm.kind,
    ...(alarm.duress ? { duress: true } : {}),
    openedAt: alarm.openedAt.toISOString(),
    ...(alarm.dueAt ? { dueAt: alarm.dueAt.toISOString() } : {}),
    state: alarm.state,
    worker: {
      userId: alarm.userId,
      ...(name ? { name } : {}),
      ...(phone ? { phone } : {}),
      ...(worker?.language ? { language: worker.language } : {}),
    },
    ...(alarm.teamId !== null ? { teamId: alarm.teamId } : {}),
    ...(alarm.location ? { location: alarm.location } : {}),
    ...(worker?.shiftNote ? { shiftNote: worker.shiftNote } : {}),
    ...(position
      ? {
          lastPosition: {
            lat: position.lat,
            lng: position.lng,
            at: position.at,
            ...(position.accuracyM !== undefined ? { accuracyM: position.accuracyM } : {}),
          },
        }
      : {}),
    history,
    step,
  };
}

/** The hand-off's one-line summary (the request's body): what the delivery log and the history show. */
export function handOffSummary(h: AlarmHandOff): string {
  const who = h.worker.name ?? `worker ${h.worker.userId}`;
  const what = h.kind === 'emergency' ? (h.duress ? 'Duress alarm' : 'Emergency') : 'Missed check-in';
  return `${what}: ${who}${h.location ? ` at ${h.location}` : ''}, unacknowledged since ${h.openedAt}`.slice(0, 1600);
}
