import { createHash, randomBytes } from 'node:crypto';
import type { EventSubject } from '@lws/contracts';
import type { AnyEventEnvelope } from '@lws/messaging';
import { DELIVERY_PRIORITY } from '../db/schema';

/**
 * The webhook event types, and the LWS events each is made from. A type is versioned on its own
 * (`.v1`): a breaking change to its data is a new `.v2` sent alongside until receivers have moved.
 */
export const WEBHOOK_EVENT_TYPES = {
  'alarm.opened.v1': 'An alarm opened: a missed check-in or an emergency',
  'alarm.escalated.v1': "One step of an alarm's escalation policy ran",
  'alarm.acknowledged.v1': 'A monitor took ownership of an alarm',
  'alarm.resolved.v1': 'An alarm was closed, with its outcome (genuine with a severity, false alarm with a reason, or test)',
  'emergency.raised.v1': 'A worker pressed the emergency button',
  'duress.raised.v1': 'A worker entered their duress PIN: a silent emergency',
  'checkin.missed.v1': "A worker's check-in deadline passed: the missed check-in alarm opened",
  'shift.started.v1': 'A worker started a shift',
  'shift.ended.v1': 'A shift ended',
  'worker.safe.v1': 'A worker said they are safe on their emergency screen',
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const SUBSCRIBABLE_TYPES = Object.keys(WEBHOOK_EVENT_TYPES) as WebhookEventType[];

/** Sent to one endpoint on request (notifications.webhook_endpoint.test.v1); no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test.v1';

/**
 * Types only an endpoint allowed duress receives. Beyond these, any message marked duress (the
 * alarm events of a duress alarm, a worker "safe" by their duress PIN) goes to those endpoints alone.
 */
export const DURESS_ONLY_TYPES: ReadonlySet<string> = new Set<WebhookEventType>(['duress.raised.v1']);

/** The LWS events the feed consumes. */
export const FEED_SUBJECTS = [
  'escalation.alarm.opened.v1',
  'escalation.alarm.escalated.v1',
  'escalation.alarm.acknowledged.v1',
  'escalation.alarm.resolved.v1',
  'escalation.alarm.worker_safe.v1',
  'shifts.emergency.raised.v1',
  'shifts.shift.started.v1',
  'shifts.shift.ended.v1',
] as const satisfies readonly EventSubject[];

/** A webhook message the feed makes from one LWS event, before it is matched to endpoints. */
export interface FeedMessage {
  id: string;
  eventType: WebhookEventType;
  /** `{ type, timestamp, data }`: the body sent, per the Standard Webhooks payload convention. */
  payload: WebhookPayload;
  sourceEventId: string;
  /** The worker it is about, whose team decides which endpoints hear of it when the event names none. */
  userId: number;
  /** The team the event names (an alarm's); absent: the worker's, from the users projection. */
  teamId?: number;
  /** To endpoints allowed duress only. */
  duress: boolean;
  priority: number;
}

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The webhook-id of an event's message of a type: the same however often the event is received. */
export function feedMessageId(eventId: string, type: string): string {
  return `msg_${createHash('sha256').update(`${eventId}|${type}`).digest('hex').slice(0, 32)}`;
}

/** A webhook-id for a message made on request (a test ping, one addressed to one endpoint). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('hex')}`;
}

const present = <T extends Record<string, unknown>>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null && v !== false)) as Partial<T>;

type Made = Omit<FeedMessage, 'id' | 'sourceEventId' | 'payload'> & { data: Record<string, unknown> };

/** An alarm's urgency: an emergency's (duress included) messages are sent first. */
const alarmPriority = (kind: 'missed_check_in' | 'emergency' | undefined, duress: boolean) =>
  duress || kind === 'emergency' ? DELIVERY_PRIORITY.emergency : DELIVERY_PRIORITY.alarm;

/**
 * What each LWS event becomes. A duress emergency is recognised from `duress` on shifts' emergency
 * and on escalation's alarm events, and from `under_duress` on a worker's "safe": each of those is
 * marked duress and never reaches an endpoint not allowed it.
 */
function made(e: AnyEventEnvelope): Made[] {
  switch (e.subject) {
    case 'escalation.alarm.opened.v1': {
      const d = e.data;
      const duress = d.duress === true;
      const common = { userId: d.userId, teamId: d.teamId, duress, priority: alarmPriority(d.kind, duress) };
      const opened: Made = {
        ...common,
        eventType: 'alarm.opened.v1',
        data: present({
          alarmId: d.alarmId,
          userId: d.userId,
          teamId: d.teamId,
          kind: d.kind,
          openedAt: d.openedAt,
          workerName: d.workerName,
          location: d.location,
          dueAt: d.dueAt,
          duress,
        }),
      };
      if (d.kind !== 'missed_check_in') return [opened];
      const missed: Made = {
        ...common,
        eventType: 'checkin.missed.v1',
        data: present({
          alarmId: d.alarmId,
          userId: d.userId,
          teamId: d.teamId,
          dueAt: d.dueAt,
          openedAt: d.openedAt,
          workerName: d.workerName,
          location: d.location,
        }),
      };
      return [opened, missed];
    }
    case 'escalation.alarm.escalated.v1': {
      const d = e.data;
      const duress = d.duress === true;
      return [
        {
          userId: d.userId,
          teamId: d.teamId,
          duress,
          priority: alarmPriority(undefined, duress),
          eventType: 'alarm.escalated.v1',
          data: present({
            alarmId: d.alarmId,
            userId: d.userId,
            teamId: d.teamId,
            step: d.step,
            action: d.action,
            at: d.at,
            details: d.details,
            duress,
          }),
        },
      ];
    }
    case 'escalation.alarm.acknowledged.v1': {
      const d = e.data;
      const duress = d.duress === true;
      return [
        {
          userId: d.userId,
          teamId: d.teamId,
          duress,
          priority: alarmPriority(undefined, duress),
          eventType: 'alarm.acknowledged.v1',
          data: present({
            alarmId: d.alarmId,
            userId: d.userId,
            teamId: d.teamId,
            byUserId: d.byUserId,
            at: d.at,
            viaToken: d.viaToken,
            duress,
          }),
        },
      ];
    }
    case 'escalation.alarm.resolved.v1': {
      const d = e.data;
      const duress = d.duress === true;
      return [
        {
          userId: d.userId,
          teamId: d.teamId,
          duress,
          priority: alarmPriority(undefined, duress),
          eventType: 'alarm.resolved.v1',
          data: {
            ...present({ alarmId: d.alarmId, userId: d.userId, teamId: d.teamId, byUserId: d.byUserId, at: d.at }),
            verdict: d.verdict,
            note: d.note,
            ...present({ severity: d.severity, reason: d.reason, viaToken: d.viaToken, duress }),
          },
        },
      ];
    }
    case 'escalation.alarm.worker_safe.v1': {
      const d = e.data;
      // The worker's screen says "safe" either way; only endpoints allowed duress learn it was the duress PIN.
      const duress = d.underDuress === true;
      return [
        {
          userId: d.userId,
          teamId: d.teamId,
          duress,
          priority: DELIVERY_PRIORITY.emergency,
          eventType: 'worker.safe.v1',
          data: present({ alarmId: d.alarmId, userId: d.userId, teamId: d.teamId, at: d.at, underDuress: duress }),
        },
      ];
    }
    case 'shifts.emergency.raised.v1': {
      const d = e.data;
      const duress = d.duress === true;
      return [
        {
          userId: d.userId,
          duress,
          priority: DELIVERY_PRIORITY.emergency,
          eventType: duress ? 'duress.raised.v1' : 'emergency.raised.v1',
          data: present({
            emergencyId: d.emergencyId,
            userId: d.userId,
            shiftId: d.shiftId,
            location: d.location,
            raisedAt: d.raisedAt,
          }),
        },
      ];
    }
    case 'shifts.shift.started.v1': {
      const d = e.data;
      return [
        {
          userId: d.userId,
          duress: false,
          priority: DELIVERY_PRIORITY.reminder,
          eventType: 'shift.started.v1',
          data: present({
            shiftId: d.shiftId,
            userId: d.userId,
            location: d.location,
            startedAt: d.startedAt,
            nextCheckInAt: d.nextCheckInAt,
            note: d.note,
            startedBy: d.startedBy,
          }),
        },
      ];
    }
    case 'shifts.shift.ended.v1': {
      const d = e.data;
      return [
        {
          userId: d.userId,
          duress: false,
          priority: DELIVERY_PRIORITY.reminder,
          eventType: 'shift.ended.v1',
          data: present({
            shiftId: d.shiftId,
            userId: d.userId,
            endedAt: d.endedAt,
            endedBy: d.endedBy,
            reason: d.reason,
            location: d.location,
          }),
        },
      ];
    }
    default:
      return [];
  }
}

/**
 * The webhook messages an LWS event becomes, with their ids (stable per event and type) and
 * payloads. The team is filled in by the feed (from the event, else the users projection) before
 * the payload is final: `withTeam`.
 */
export function feedMessagesOf(e: AnyEventEnvelope): FeedMessage[] {
  return made(e).map(({ data, ...m }) => ({
    ...m,
    id: feedMessageId(e.id, m.eventType),
    sourceEventId: e.id,
    payload: { type: m.eventType, timestamp: e.occurredAt, data },
  }));
}

/** The message with the worker's team in its data (when known and the event named none). */
export function withTeam(m: FeedMessage, teamId: number | undefined): FeedMessage {
  if (m.teamId !== undefined || teamId === undefined) return m;
  return { ...m, teamId, payload: { ...m.payload, data: { ...m.payload.data, teamId } } };
}
