import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EventMap, TranslatableText } from '@lws/contracts';
import type { PendingEvent } from '@lws/messaging';
import { CLOCK, type Clock, type Emit, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { notificationRequests } from '../db/schema';

type Request = EventMap['escalation.notification.requested.v1'];
type Purpose = Request['purpose'];

const TITLE_MAX = 200;
const BODY_MAX = 1600;
/** A value of a text to translate (a name, a location) at most: the contract's rule. */
const VALUE_MAX = 200;
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);
const clipValues = (t: TranslatableText): TranslatableText => ({
  text: t.text,
  values: Object.fromEntries(Object.entries(t.values).map(([k, v]) => [k, clip(v, VALUE_MAX)])),
});

/**
 * Escalation never talks to a provider: every message, call and push is a request notifications
 * fulfils. An alarm's requests are also tracked until notifications confirms it took them
 * (RequestTracker asks again otherwise).
 */
@Injectable()
export class Notifier {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {}

  async request(tx: Tx, emit: Emit, { urgent, ...r }: RequestSpec & { urgent?: boolean }): Promise<string> {
    const event = requestEvent(r);
    await emitRequest(emit, event.data, urgent === true);
    if (r.alarmId) {
      const now = this.clock();
      await tx.insert(notificationRequests).values({
        requestId: event.data.requestId,
        alarmId: r.alarmId,
        request: event.data,
        requestedAt: now,
        nextAskAt: new Date(now.getTime() + this.settings.requestConfirmMs),
      });
    }
    return event.data.requestId;
  }

  text(tx: Tx, emit: Emit, channel: 'sms' | 'whatsapp', toPhone: string, purpose: Purpose, body: string, extra: RequestAbout) {
    return this.request(tx, emit, { channel, toPhone, purpose, body, ...extra });
  }

  async systemAlert(emit: Emit, code: string, details: string, at: Date, userId?: number): Promise<void> {
    const event = systemAlertEvent(code, details, at, userId);
    await emit(event.subject, event.data);
  }
}

export type RequestSpec = Omit<Request, 'requestId' | 'title' | 'body'> & { title?: string; body: string };
/** Whom a request is about; urgent: an emergency's, sent on notifications' urgent lane; language: the text's, none: English. */
type RequestAbout = { userId: number; alarmId?: string; urgent?: boolean; language?: string };

/**
 * Writes a request to the outbox: an emergency's on escalation.notification.urgent.v1, which the
 * relay publishes first and notifications takes on a consumer of its own; the rest as requested.
 */
export function emitRequest(emit: Emit, request: Request, urgent: boolean): Promise<unknown> {
  return urgent ? emit('escalation.notification.urgent.v1', { request }) : emit('escalation.notification.requested.v1', request);
}

/** The event a request is written as: an emergency's on the urgent subject, the rest as requested. */
export function urgentOrNot(request: Request, urgent: boolean): PendingEvent {
  return urgent
    ? { subject: 'escalation.notification.urgent.v1', data: { request } }
    : { subject: 'escalation.notification.requested.v1', data: request };
}

/** The request event itself, for callers that write events in batches (the scheduler). */
export function requestEvent(r: RequestSpec): { subject: 'escalation.notification.requested.v1'; data: Request } {
  return {
    subject: 'escalation.notification.requested.v1',
    data: {
      ...r,
      requestId: randomUUID(),
      title: clip(r.title ?? '', TITLE_MAX),
      body: clip(r.body, BODY_MAX),
      ...(r.titleText ? { titleText: clipValues(r.titleText) } : {}),
      ...(r.bodyText ? { bodyText: clipValues(r.bodyText) } : {}),
    },
  };
}

export function systemAlertEvent(
  code: string,
  details: string,
  at: Date,
  userId?: number,
): { subject: 'escalation.system_alert.raised.v1'; data: EventMap['escalation.system_alert.raised.v1'] } {
  return {
    subject: 'escalation.system_alert.raised.v1',
    data: { alertId: randomUUID(), ...(userId !== undefined ? { userId } : {}), code, details, at: at.toISOString() },
  };
}
