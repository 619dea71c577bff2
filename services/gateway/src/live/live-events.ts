import type { EventSubject } from '@lws/contracts';
import type { AnyEventEnvelope } from '@lws/messaging';
import { browserEntry } from '../activity/activity.view';

/** The bus events the stream is made from; nothing else reaches a browser. */
export const LIVE_SUBJECTS = [
  'shifts.shift.started.v1',
  'shifts.shift.ended.v1',
  'shifts.checkin.recorded.v1',
  'shifts.deadline.changed.v1',
  'shifts.emergency.raised.v1',
  'shifts.visit.started.v1',
  'shifts.visit.ended.v1',
  'escalation.alarm.opened.v1',
  'escalation.alarm.acknowledged.v1',
  'escalation.alarm.resolved.v1',
  'escalation.alarm.escalated.v1',
  'escalation.alarm.late_check_in.v1',
  'escalation.alarm.worker_safe.v1',
  'escalation.alarm.pressed_again.v1',
  'escalation.alarm.note_added.v1',
  'escalation.alarm.message_sent.v1',
  'escalation.checkin_request.created.v1',
  'escalation.checkin_request.closed.v1',
  'audit.entry.recorded.v1',
  'identity.user.created.v1',
  'identity.user.updated.v1',
  'identity.user.deleted.v1',
  'identity.contact.changed.v1',
  'identity.settings.changed.v1',
  'identity.credential.changed.v1',
  'identity.team.changed.v1',
  'identity.user.deactivated.v1',
  'identity.user.reactivated.v1',
] as const satisfies readonly EventSubject[];

export type LiveEventType = 'worker' | 'alarm' | 'activity' | 'account' | 'checkin_request';

/**
 * Monitors: the superadmin sees every worker, an admin the workers of their teams; a
 * worker only what is addressed to its own id.
 */
export type Audience = 'monitors' | { userId: number };

export interface LiveDelivery {
  type: LiveEventType;
  data: Record<string, unknown>;
  to: Audience;
  /** The user a monitors' frame is about, which decides which admins see it; absent: about nobody in particular. */
  about?: number;
  /** The team an alarm's frame is about (the worker's when it opened): it decides instead of `about`. */
  aboutTeam?: number;
}

type WorkerChange = 'shift_started' | 'shift_ended' | 'checked_in' | 'deadline_changed' | 'emergency' | 'visit_started' | 'visit_ended';

/** The worker's own screen and every monitor see the same change of a worker's status. */
function workerChange(
  userId: number,
  change: WorkerChange,
  at: string,
  extra: { nextCheckInTime?: string | null; location?: string | null },
): LiveDelivery[] {
  const data = { userId, change, at, ...extra };
  return [
    { type: 'worker', data, to: 'monitors', about: userId },
    { type: 'worker', data, to: { userId } },
  ];
}

function alarmChange(alarmId: string, userId: number, change: string, at: string, kind?: string, teamId?: number): LiveDelivery {
  return {
    type: 'alarm',
    data: { alarmId, userId, change, ...(kind ? { kind } : {}), at },
    to: 'monitors',
    about: userId,
    ...(teamId !== undefined ? { aboutTeam: teamId } : {}),
  };
}

/**
 * Monitors see the change; so does the worker's own emergency screen, which refetches what it
 * shows through the API. `monitorsOnly`: a duress alarm's change (or a step of one the worker
 * cancelled with the duress PIN), which the worker's stream must not carry: whoever holds their
 * phone would see the screen react to an alarm it never shows.
 */
function alarmChangeBoth(
  alarmId: string,
  userId: number,
  change: string,
  at: string,
  teamId: number | undefined,
  monitorsOnly = false,
): LiveDelivery[] {
  const frame = alarmChange(alarmId, userId, change, at, undefined, teamId);
  return monitorsOnly ? [frame] : [frame, { ...frame, to: { userId } }];
}

/**
 * A change to an account's profile, contacts, settings or credentials. The account's own screen
 * refetches its profile on it; names, phones and which credential changed stay out of the frame.
 */
function accountUpdated(userId: number): LiveDelivery[] {
  const data = { userId, change: 'updated' };
  return [
    { type: 'account', data, to: 'monitors', about: userId },
    { type: 'account', data, to: { userId } },
  ];
}

const ALARM_CHANGES = {
  'escalation.alarm.acknowledged.v1': 'acknowledged',
  'escalation.alarm.resolved.v1': 'resolved',
  'escalation.alarm.escalated.v1': 'escalated',
} as const;

/**
 * What one bus event becomes on the stream, and for whom (docs/api-live.md). Only ids, changes and
 * times leave the gateway: a client refetches details through the API, which applies its own rules.
 */
export function liveDeliveries(envelope: AnyEventEnvelope): LiveDelivery[] {
  switch (envelope.subject) {
    case 'shifts.shift.started.v1': {
      const d = envelope.data;
      return workerChange(d.userId, 'shift_started', d.startedAt, { nextCheckInTime: d.nextCheckInAt, location: d.location });
    }
    case 'shifts.shift.ended.v1': {
      const d = envelope.data;
      return workerChange(d.userId, 'shift_ended', d.endedAt, { nextCheckInTime: null, location: d.location ?? null });
    }
    case 'shifts.checkin.recorded.v1': {
      const d = envelope.data;
      return workerChange(d.userId, 'checked_in', d.checkedInAt, { nextCheckInTime: d.nextCheckInAt, location: d.location });
    }
    case 'shifts.deadline.changed.v1': {
      const d = envelope.data;
      return workerChange(d.userId, 'deadline_changed', d.changedAt, { nextCheckInTime: d.nextCheckInAt });
    }
    case 'shifts.visit.started.v1': {
      // Where and until when, never the note: the screens fetch the worker afresh.
      const d = envelope.data;
      return workerChange(d.userId, 'visit_started', d.visit.startedAt, { nextCheckInTime: d.nextCheckInAt });
    }
    case 'shifts.visit.ended.v1':
      // The same for the PIN and the duress PIN: the check-in (or shift end) that comes with it carries the rest.
      return workerChange(envelope.data.userId, 'visit_ended', envelope.data.endedAt, {});
    case 'shifts.emergency.raised.v1': {
      const d = envelope.data;
      const frames = workerChange(d.userId, 'emergency', d.raisedAt, { location: d.location ?? null });
      // Raised by the duress PIN: the monitors' alone, like the alarm it opens.
      return d.duress ? frames.filter((f) => f.to === 'monitors') : frames;
    }
    case 'escalation.alarm.opened.v1': {
      const d = envelope.data;
      const opened = alarmChange(d.alarmId, d.userId, 'opened', d.openedAt, d.kind, d.teamId);
      // A duress alarm is the monitors' alone: the worker's screen must not change because of it.
      if (d.duress) return [{ ...opened, data: { ...opened.data, duress: true } }];
      return [opened, { ...opened, to: { userId: d.userId } }];
    }
    case 'escalation.alarm.acknowledged.v1':
    case 'escalation.alarm.resolved.v1':
    case 'escalation.alarm.escalated.v1': {
      const d = envelope.data;
      return alarmChangeBoth(d.alarmId, d.userId, ALARM_CHANGES[envelope.subject], d.at, d.teamId, d.duress === true);
    }
    case 'escalation.alarm.worker_safe.v1':
      // Under duress the worker's frame is the PIN's exactly; monitors read which it was in the alarm.
      return alarmChangeBoth(envelope.data.alarmId, envelope.data.userId, 'worker_safe', envelope.data.at, envelope.data.teamId);
    case 'escalation.alarm.pressed_again.v1':
      // Never a duress alarm's (a duress press opens its own): the worker's screen shows the line too.
      return alarmChangeBoth(envelope.data.alarmId, envelope.data.userId, 'pressed_again', envelope.data.pressedAt, envelope.data.teamId);
    case 'escalation.alarm.note_added.v1':
      // A note is for monitors: the worker's screen never shows one.
      return [alarmChange(envelope.data.alarmId, envelope.data.userId, 'note_added', envelope.data.at, undefined, envelope.data.teamId)];
    case 'escalation.alarm.message_sent.v1':
      // Escalation never writes a message on a duress alarm: the worker's screen shows the thread.
      return alarmChangeBoth(envelope.data.alarmId, envelope.data.userId, 'message', envelope.data.at, envelope.data.teamId);
    case 'escalation.alarm.late_check_in.v1':
      return [
        alarmChange(
          envelope.data.alarmId,
          envelope.data.userId,
          'late_check_in',
          envelope.data.checkedInAt,
          undefined,
          envelope.data.teamId,
        ),
      ];
    case 'escalation.checkin_request.created.v1':
    case 'escalation.checkin_request.closed.v1': {
      // The worker's screen shows the request until they answer it; monitors watch the batch fill up.
      const d = envelope.data;
      const data =
        envelope.subject === 'escalation.checkin_request.created.v1'
          ? {
              requestId: d.requestId,
              batchId: d.batchId,
              userId: d.userId,
              change: 'requested',
              at: envelope.data.requestedAt,
              dueAt: envelope.data.dueAt,
            }
          : {
              requestId: d.requestId,
              batchId: d.batchId,
              userId: d.userId,
              change: 'closed',
              outcome: envelope.data.outcome,
              at: envelope.data.at,
            };
      const monitors: LiveDelivery = {
        type: 'checkin_request',
        data,
        to: 'monitors',
        about: d.userId,
        ...(d.teamId !== undefined ? { aboutTeam: d.teamId } : {}),
      };
      return [monitors, { ...monitors, to: { userId: d.userId } }];
    }
    case 'audit.entry.recorded.v1': {
      const d = envelope.data;
      const entry = browserEntry({
        id: d.entryId,
        userId: d.userId,
        // The audit service always sends both; the fallbacks are its own rules for older events.
        username: d.username ?? (d.userId !== undefined ? `user-${d.userId}` : 'System'),
        type: d.type,
        label: d.label ?? 'Unknown',
        at: d.at,
        details: d.details,
        location: d.location,
      });
      return [{ type: 'activity', data: entry, to: 'monitors', ...(d.userId !== undefined ? { about: d.userId } : {}) }];
    }
    case 'identity.user.created.v1':
      return [{ type: 'account', data: { userId: envelope.data.userId, change: 'created' }, to: 'monitors', about: envelope.data.userId }];
    case 'identity.user.updated.v1':
    case 'identity.contact.changed.v1':
    case 'identity.settings.changed.v1':
    case 'identity.credential.changed.v1':
    case 'identity.user.deactivated.v1':
    case 'identity.user.reactivated.v1':
      return accountUpdated(envelope.data.userId);
    case 'identity.user.deleted.v1':
      return [{ type: 'account', data: { userId: envelope.data.userId, change: 'deleted' }, to: 'monitors', about: envelope.data.userId }];
    default:
      return [];
  }
}

/**
 * How an event changes which workers admins see: a worker created in or moved to a team (heard
 * before the event's own frame is handed out, so the new team's admins get it), or any change to a
 * team (its monitors, or the number of teams, which decides who monitors them all).
 */
export type ScopeChange = { kind: 'member'; userId: number; teamId: number } | { kind: 'teams' };

export function scopeChange(envelope: AnyEventEnvelope): ScopeChange | undefined {
  switch (envelope.subject) {
    case 'identity.user.created.v1':
    case 'identity.user.updated.v1':
      return envelope.data.teamId !== undefined
        ? { kind: 'member', userId: envelope.data.userId, teamId: envelope.data.teamId }
        : undefined;
    case 'identity.team.changed.v1':
      return { kind: 'teams' };
    default:
      return undefined;
  }
}
