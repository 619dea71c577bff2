import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import twilio from 'twilio';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { Batcher, CLOCK, LOGGER, UnitOfWork, type Clock, type Logger } from '@lws/platform';
import { ProviderSettings } from '../provider/provider-settings';
import { DeliveriesRepository, type Delivery } from '../deliveries/deliveries.repository';
import { emitMessageStatus, messageStatusEvent } from '../deliveries/delivery-events';
import { SenderService } from '../deliveries/sender.service';
import { SmsCheckIn } from '../inbound/sms-check-in';
import {
  acceptedTwiml,
  alertTwiml,
  goneTwiml,
  isTerminalCallStatus,
  notAcceptedTwiml,
  PIN_OUTCOMES,
  PIN_TRIES,
  pinOutcomeTwiml,
  pinReminderTwiml,
} from '../deliveries/voice-flow';
import { PinCheckIn } from '../inbound/pin-check-in';

type Request = CommandMap['notifications.webhook.twilio.v1']['request'];
type Reply = CommandMap['notifications.webhook.twilio.v1']['reply'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const XML = 'text/xml';
const EMPTY: Reply = { contentType: 'text/plain', body: '' };

/** Message statuses in the order they happen; a late callback never moves a row backwards. */
const MESSAGE_RANK: Record<string, number> = { queued: 1, sending: 2, sent: 3, delivered: 4, read: 5, undelivered: 6, failed: 6 };

/** A message's status callback, waiting to be recorded with the others that came with it. */
interface StatusCallback {
  id: string;
  params: Record<string, string>;
  now: Date;
}
/**
 * A status callback waits at most this long for others, then all are recorded in one transaction
 * of at most STATUSES_PER_SAVE: a flood of alarms brings two or three callbacks a message, and one
 * transaction each was most of notifications' statements (bench/escalation/to-person.mjs).
 */
const STATUS_WAIT_MS = 5;
const STATUSES_PER_SAVE = 200;

/**
 * Twilio's webhooks, as forwarded by the gateway: the call's TwiML, the key pressed, status
 * callbacks, and texts to LWS's number (a PIN check-in). Each is checked against X-Twilio-Signature with the auth token first.
 */
@Injectable()
export class WebhooksService implements BeforeApplicationShutdown {
  private readonly statuses = new Batcher<StatusCallback>({
    maxWaitMs: STATUS_WAIT_MS,
    maxSize: STATUSES_PER_SAVE,
    save: (callbacks) => this.saveStatuses(callbacks),
    onSplit: (err, size) =>
      this.logger.warn({ err, callbacks: size }, 'recording message status callbacks together failed; recording them one at a time'),
  });

  constructor(
    private readonly settings: ProviderSettings,
    private readonly repo: DeliveriesRepository,
    private readonly sender: SenderService,
    private readonly smsCheckIn: SmsCheckIn,
    private readonly pins: PinCheckIn,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Callbacks already taken are recorded before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.statuses.drained();
  }

  async handle(req: Request): Promise<Reply> {
    if (!this.signatureValid(req)) {
      this.logger.warn({ kind: req.kind }, 'Twilio webhook with an invalid signature refused');
      throw new RpcError(403, 'Invalid Twilio signature', { code: 'bad_signature' });
    }
    // A text to LWS's number: no delivery of ours behind it.
    if (req.kind === 'sms_inbound') return { contentType: XML, body: await this.smsCheckIn.handle(req.params) };
    const id = new URL(req.url).searchParams.get('m') ?? '';
    if (!UUID.test(id)) throw new RpcError(400, 'Unknown delivery', { field: 'm' });
    switch (req.kind) {
      case 'voice':
        return this.voice(id, req.params);
      case 'gather':
        return this.gather(id, req.params, req.url);
      case 'call_status':
        return this.callStatus(id, req.params);
      case 'message_status':
        return this.messageStatus(id, req.params);
    }
  }

  /**
   * The URL as the gateway saw it; behind a proxy that rewrites scheme or host, the same path on
   * PUBLIC_BASE_URL (the URL Twilio was given, and signed).
   */
  private signatureValid(req: Request): boolean {
    if (!req.signature) return false;
    if (twilio.validateRequest(this.settings.authToken, req.signature, req.url, req.params)) return true;
    const seen = new URL(req.url);
    const base = new URL(this.settings.publicBaseUrl);
    const published = `${base.origin}${seen.pathname}${seen.search}`;
    return published !== req.url && twilio.validateRequest(this.settings.authToken, req.signature, published, req.params);
  }

  private async voice(id: string, params: Record<string, string>): Promise<Reply> {
    const row = await this.repo.find(id);
    if (row?.channel !== 'voice' || !this.sameSid(row.providerSid, params.CallSid)) return { contentType: XML, body: goneTwiml() };
    const url = this.settings.webhookUrl('gather', id);
    if (isReminder(row.purpose) && row.userId !== null)
      return { contentType: XML, body: pinReminderTwiml(row.body, url, false, row.language) };
    return { contentType: XML, body: alertTwiml(row.body, url, row.language) };
  }

  private async gather(id: string, params: Record<string, string>, url: string): Promise<Reply> {
    const row = await this.repo.find(id);
    if (row && row.channel === 'voice' && isReminder(row.purpose) && row.userId !== null)
      return this.keyedPin(row, row.userId, params, url);
    return this.acceptAlarm(id, params, row?.language);
  }

  /**
   * A PIN keyed in on a check-in reminder call, answered in the call's language: checked in, or
   * told why not; a wrong PIN may be keyed again, PIN_TRIES times in all (each counts toward the
   * lockout, as anywhere).
   */
  private async keyedPin(row: Delivery, userId: number, params: Record<string, string>, url: string): Promise<Reply> {
    const digits = params.Digits ?? '';
    const tries = Number(new URL(url).searchParams.get('try') ?? '1');
    const told = (text: string, values: Record<string, string> = {}) => ({
      contentType: XML,
      body: pinOutcomeTwiml(text, row.language, values),
    });
    if (!/^\d{4}$/.test(digits)) return told(PIN_OUTCOMES.tooShort);
    const outcome = await this.pins.byUser(userId, digits, `call:${params.CallSid ?? row.id}`);
    switch (outcome.kind) {
      case 'checked_in':
        return told(PIN_OUTCOMES.checkedIn, { due: outcome.due });
      case 'wrong_pin':
        if (tries >= PIN_TRIES) return told(PIN_OUTCOMES.wrongPin);
        return {
          contentType: XML,
          body: pinReminderTwiml(row.body, `${this.settings.webhookUrl('gather', row.id)}&try=${tries + 1}`, true, row.language),
        };
      case 'locked':
        return told(PIN_OUTCOMES.locked);
      case 'not_on_shift':
        return told(PIN_OUTCOMES.notOnShift);
      case 'unknown_sender':
      case 'shared_number':
      case 'failed':
        return told(PIN_OUTCOMES.failed);
    }
  }

  private async acceptAlarm(id: string, params: Record<string, string>, language: string | null = null): Promise<Reply> {
    const accepted = params.Digits === '1';
    const result = await this.uow.run(async (tx) => {
      const row = await this.repo.lock(tx, id);
      if (row?.channel !== 'voice' || !this.sameSid(row.providerSid, params.CallSid)) return 'gone' as const;
      if (row.outcome !== null) return 'gone' as const;
      if (accepted)
        await this.repo.update(tx, id, { accepted: true, providerSid: row.providerSid ?? params.CallSid, updatedAt: this.clock() });
      return accepted ? ('accepted' as const) : ('not_accepted' as const);
    });
    if (result === 'gone') return { contentType: XML, body: goneTwiml(language) };
    this.logger.info({ messageId: id, accepted }, 'call answered with a key press');
    return { contentType: XML, body: accepted ? acceptedTwiml(language) : notAcceptedTwiml(language) };
  }

  private async callStatus(id: string, params: Record<string, string>): Promise<Reply> {
    const status = params.CallStatus ?? '';
    const now = this.clock();
    await this.uow.run(async (tx, emit) => {
      const row = await this.repo.lock(tx, id);
      if (row?.channel !== 'voice' || !this.sameSid(row.providerSid, params.CallSid) || row.outcome !== null) return;
      if (!isTerminalCallStatus(status)) {
        await this.repo.update(tx, id, { status, updatedAt: now });
        return;
      }
      const withSid = row.providerSid ? row : (await this.repo.update(tx, id, { providerSid: params.CallSid }))!;
      const settled = await this.sender.settle(tx, emit, withSid, status, now);
      if (settled) await emitMessageStatus(emit, settled);
    });
    return EMPTY;
  }

  /** Answered once the status is recorded (Twilio retries a callback that fails), with the others that came with it. */
  private async messageStatus(id: string, params: Record<string, string>): Promise<Reply> {
    await this.statuses.add({ id, params, now: this.clock() });
    return EMPTY;
  }

  /**
   * Records status callbacks in the order they came, in one transaction: the rows are locked
   * together, each callback moves its row forward only (MESSAGE_RANK), the rows that moved are
   * written in one statement, and every step forward but 'sending' is published, as it would be
   * one callback at a time.
   */
  private async saveStatuses(callbacks: StatusCallback[]): Promise<void> {
    await this.uow.run(async (tx, emit) => {
      const rows = new Map((await this.repo.lockMany(tx, [...new Set(callbacks.map((c) => c.id))])).map((row) => [row.id, row]));
      const moved = new Map<string, Delivery>();
      const told: Delivery[] = [];
      for (const { id, params, now } of callbacks) {
        const row = rows.get(id);
        const status = params.MessageStatus ?? '';
        if (!row || (row.channel !== 'sms' && row.channel !== 'whatsapp') || !this.sameSid(row.providerSid, params.MessageSid)) continue;
        if ((MESSAGE_RANK[status] ?? 0) <= (MESSAGE_RANK[row.status] ?? 0)) continue;
        const code = Number(params.ErrorCode);
        const next: Delivery = {
          ...row,
          status,
          ...(Number.isInteger(code) && code > 0 ? { errorCode: code, errorMessage: params.ErrorMessage ?? `Provider error ${code}` } : {}),
          updatedAt: now,
        };
        rows.set(id, next);
        moved.set(id, next);
        if (status !== 'sending') told.push(next);
      }
      await this.repo.setStatuses(tx, [...moved.values()]);
      await emit.many(told.map(messageStatusEvent));
    });
  }

  /** A callback for a row whose sid is not yet recorded (it raced the API reply) is accepted. */
  private sameSid(recorded: string | null, reported: string | undefined): boolean {
    return recorded === null || recorded === reported;
  }
}

/** A check-in reminder (a call of one takes the PIN on the keypad), not an alarm. */
function isReminder(purpose: string): boolean {
  return purpose === 'reminder_5min' || purpose === 'reminder_2min';
}
