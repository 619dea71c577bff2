import { Inject, Injectable } from '@nestjs/common';
import twilio from 'twilio';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, LOGGER, UnitOfWork, type Clock, type Logger } from '@lws/platform';
import { ProviderSettings } from '../provider/provider-settings';
import { DeliveriesRepository } from '../deliveries/deliveries.repository';
import { emitMessageStatus } from '../deliveries/delivery-events';
import { SenderService } from '../deliveries/sender.service';
import { acceptedTwiml, alertTwiml, goneTwiml, isTerminalCallStatus, notAcceptedTwiml } from '../deliveries/voice-flow';

type Request = CommandMap['notifications.webhook.twilio.v1']['request'];
type Reply = CommandMap['notifications.webhook.twilio.v1']['reply'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const XML = 'text/xml';
const EMPTY: Reply = { contentType: 'text/plain', body: '' };

/** Message statuses in the order they happen; a late callback never moves a row backwards. */
const MESSAGE_RANK: Record<string, number> = { queued: 1, sending: 2, sent: 3, delivered: 4, read: 5, undelivered: 6, failed: 6 };

/**
 * Twilio's webhooks, as forwarded by the gateway: the call's TwiML, the key pressed, and status
 * callbacks. Each is checked against X-Twilio-Signature with the auth token first.
 */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly settings: ProviderSettings,
    private readonly repo: DeliveriesRepository,
    private readonly sender: SenderService,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async handle(req: Request): Promise<Reply> {
    if (!this.signatureValid(req)) {
      this.logger.warn({ kind: req.kind }, 'Twilio webhook with an invalid signature refused');
      throw new RpcError(403, 'Invalid Twilio signature', { code: 'bad_signature' });
    }
    const id = new URL(req.url).searchParams.get('m') ?? '';
    if (!UUID.test(id)) throw new RpcError(400, 'Unknown delivery', { field: 'm' });
    switch (req.kind) {
      case 'voice':
        return this.voice(id, req.params);
      case 'gather':
        return this.gather(id, req.params);
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
    if (!row || row.channel !== 'voice' || !this.sameSid(row.providerSid, params.CallSid)) return { contentType: XML, body: goneTwiml() };
    return { contentType: XML, body: alertTwiml(row.body, this.settings.webhookUrl('gather', id)) };
  }

  private async gather(id: string, params: Record<string, string>): Promise<Reply> {
    const accepted = params.Digits === '1';
    const result = await this.uow.run(async (tx) => {
      const row = await this.repo.lock(tx, id);
      if (!row || row.channel !== 'voice' || !this.sameSid(row.providerSid, params.CallSid)) return 'gone' as const;
      if (row.outcome !== null) return 'gone' as const;
      if (accepted) await this.repo.update(tx, id, { accepted: true, providerSid: row.providerSid ?? params.CallSid, updatedAt: this.clock() });
      return accepted ? ('accepted' as const) : ('not_accepted' as const);
    });
    if (result === 'gone') return { contentType: XML, body: goneTwiml() };
    this.logger.info({ messageId: id, accepted }, 'call answered with a key press');
    return { contentType: XML, body: accepted ? acceptedTwiml() : notAcceptedTwiml() };
  }

  private async callStatus(id: string, params: Record<string, string>): Promise<Reply> {
    const status = params.CallStatus ?? '';
    const now = this.clock();
    await this.uow.run(async (tx, emit) => {
      const row = await this.repo.lock(tx, id);
      if (!row || row.channel !== 'voice' || !this.sameSid(row.providerSid, params.CallSid) || row.outcome !== null) return;
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

  private async messageStatus(id: string, params: Record<string, string>): Promise<Reply> {
    const status = params.MessageStatus ?? '';
    const code = Number(params.ErrorCode);
    const now = this.clock();
    await this.uow.run(async (tx, emit) => {
      const row = await this.repo.lock(tx, id);
      if (!row || (row.channel !== 'sms' && row.channel !== 'whatsapp') || !this.sameSid(row.providerSid, params.MessageSid)) return;
      if ((MESSAGE_RANK[status] ?? 0) <= (MESSAGE_RANK[row.status] ?? 0)) return;
      const saved = await this.repo.update(tx, id, {
        status,
        ...(Number.isInteger(code) && code > 0 ? { errorCode: code, errorMessage: params.ErrorMessage ?? `Provider error ${code}` } : {}),
        updatedAt: now,
      });
      if (saved && status !== 'sending') await emitMessageStatus(emit, saved);
    });
    return EMPTY;
  }

  /** A callback for a row whose sid is not yet recorded (it raced the API reply) is accepted. */
  private sameSid(recorded: string | null, reported: string | undefined): boolean {
    return recorded === null || recorded === reported;
  }
}
