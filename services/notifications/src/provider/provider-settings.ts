import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient';
import { CONFIG, ConfigError, LOGGER, type BaseConfig, type Logger } from '@lws/platform';
import { DEFAULT_PUBLIC_BASE_URL, type NotificationsConfig } from '../config';
import { FakeTwilio, FakeTwilioControl } from '../fake-twilio/fake-twilio';
import { LocalSecrets } from './local-secrets';

/** The SDK's requests time out well inside the sender's claim on a delivery. */
const REQUEST_TIMEOUT_MS = 15_000;

/** Twilio's test "from" number: the fake provider accepts anything, this keeps the log realistic. */
const FAKE_FROM_NUMBER = '+15005550006';

/** The longest Retry-After taken at its word (an absurd one would stop the sender for hours). */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * The provider answered 429 (too many requests). Still a RestException, as the SDK would have
 * thrown, plus the answer's Retry-After, which the SDK's own error leaves out.
 */
export class ProviderRateLimitedError extends twilio.RestException {
  constructor(
    response: { statusCode: number; body: unknown },
    /** How long the provider asked to be left alone (Retry-After), when it said. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(response);
  }
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const text = String(value).trim();
  const ms = /^\d+(\.\d+)?$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(ms))) : undefined;
}

/**
 * The SDK's HTTP client, its connection pool sized for the requests the sender keeps in flight
 * (the SDK's default allows 20 sockets to Twilio and keeps 5 open between bursts, so the rest of
 * the sender's requests would queue inside the client and open new TLS connections). A 429 is
 * thrown as a ProviderRateLimitedError carrying its Retry-After. With `baseUrl`, requests go to
 * the fake provider instead of api.twilio.com: the SDK, its serialisation, auth and error
 * handling all run as they would against Twilio.
 */
export class ProviderRequestClient extends twilio.RequestClient {
  constructor(
    readonly sockets: number,
    private readonly baseUrl?: string,
  ) {
    super({ timeout: REQUEST_TIMEOUT_MS, keepAlive: true, maxSockets: sockets, maxTotalSockets: sockets, maxFreeSockets: sockets });
    // The fake speaks plain http, which axios sends through its http agent: pooled the same way.
    if (baseUrl) {
      this.axios.defaults.httpAgent = new http.Agent({
        keepAlive: true,
        timeout: REQUEST_TIMEOUT_MS,
        maxSockets: sockets,
        maxTotalSockets: sockets,
        maxFreeSockets: sockets,
      });
    }
  }

  override async request<T>(opts: RequestClient.RequestOptions<T>) {
    const uri = this.baseUrl ? opts.uri.replace(/^https:\/\/[a-z0-9.-]+\.twilio\.com/, this.baseUrl) : opts.uri;
    const response = await super.request({ ...opts, uri });
    if (response.statusCode === 429) {
      const headers = (response.headers ?? {}) as Record<string, unknown>;
      throw new ProviderRateLimitedError(response, retryAfterMs(headers['retry-after']));
    }
    return response;
  }
}

/**
 * Who LWS is at Twilio and where Twilio calls back. Without a Twilio account (never in
 * production) the SDK talks to the fake provider: FAKE_TWILIO_URL, or one started here.
 */
@Injectable()
export class ProviderSettings implements OnModuleInit, OnModuleDestroy {
  accountSid = '';
  authToken = '';
  fromNumber = '';
  whatsappFrom = '';
  publicBaseUrl = '';
  /** Set when the fake provider is in use: its control API. */
  fake?: FakeTwilioControl;
  client!: twilio.Twilio;
  private ownFake?: FakeTwilio;

  constructor(
    @Inject(CONFIG) private readonly config: NotificationsConfig & BaseConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly secrets: LocalSecrets,
  ) {}

  async onModuleInit(): Promise<void> {
    const c = this.config;
    const production = c.NODE_ENV === 'production';
    if (production) {
      const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER', 'PUBLIC_BASE_URL'] as const).filter((v) => !c[v]);
      const problems: { variable: string; message: string }[] = missing.map((variable) => ({
        variable,
        message: 'is required in production',
      }));
      if (c.FAKE_TWILIO_URL) problems.push({ variable: 'FAKE_TWILIO_URL', message: 'the fake provider cannot be used in production' });
      if (problems.length > 0) throw new ConfigError(problems);
    }
    this.publicBaseUrl = c.PUBLIC_BASE_URL ?? DEFAULT_PUBLIC_BASE_URL;

    if (c.TWILIO_ACCOUNT_SID) {
      const problems: { variable: string; message: string }[] = (['TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const)
        .filter((v) => !c[v])
        .map((variable) => ({ variable, message: 'is required when TWILIO_ACCOUNT_SID is set' }));
      if (c.FAKE_TWILIO_URL)
        problems.push({ variable: 'FAKE_TWILIO_URL', message: 'cannot be combined with a real Twilio account (TWILIO_ACCOUNT_SID)' });
      if (problems.length > 0) throw new ConfigError(problems);
      this.accountSid = c.TWILIO_ACCOUNT_SID;
      this.authToken = c.TWILIO_AUTH_TOKEN!;
      this.fromNumber = c.TWILIO_FROM_NUMBER!;
      this.whatsappFrom = c.TWILIO_WHATSAPP_FROM ?? this.fromNumber;
      this.client = twilio(this.accountSid, this.authToken, { httpClient: new ProviderRequestClient(c.NOTIFICATIONS_SENDER_IN_FLIGHT) });
      this.logger.info({ publicBaseUrl: this.publicBaseUrl }, 'notifications: sending through Twilio');
      return;
    }
    if (c.TWILIO_AUTH_TOKEN) {
      throw new ConfigError([{ variable: 'TWILIO_ACCOUNT_SID', message: 'is required when TWILIO_AUTH_TOKEN is set' }]);
    }

    // Generated per database: the fake checks them and signs its webhooks with the token, so the
    // real signature validation runs, and calls placed before a restart still validate after it.
    this.accountSid = await this.secrets.get('fake_twilio_account_sid', () => `AC${randomBytes(16).toString('hex')}`);
    this.authToken = await this.secrets.get('fake_twilio_auth_token', () => randomBytes(16).toString('hex'));
    this.fromNumber = c.TWILIO_FROM_NUMBER ?? FAKE_FROM_NUMBER;
    this.whatsappFrom = c.TWILIO_WHATSAPP_FROM ?? this.fromNumber;
    let url = c.FAKE_TWILIO_URL;
    if (!url) {
      this.ownFake = await FakeTwilio.start({ accountSid: this.accountSid, authToken: this.authToken });
      url = this.ownFake.url;
    }
    this.fake = new FakeTwilioControl(url);
    this.client = twilio(this.accountSid, this.authToken, { httpClient: new ProviderRequestClient(c.NOTIFICATIONS_SENDER_IN_FLIGHT, url) });
    this.logger.warn(
      { fakeProviderUrl: url, publicBaseUrl: this.publicBaseUrl },
      'notifications: no Twilio account configured (TWILIO_ACCOUNT_SID); SMS, WhatsApp and calls go to the local fake provider',
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.ownFake?.close();
  }

  /** A webhook URL Twilio will call (and sign), carrying the delivery's id. */
  webhookUrl(kind: 'voice' | 'gather' | 'call-status' | 'message-status', messageId: string): string {
    return `${this.publicBaseUrl}/webhooks/twilio/${kind}?m=${messageId}`;
  }

  /** Where Twilio posts texts to LWS's number: set as the number's "A message comes in" webhook. */
  inboundSmsUrl(): string {
    return `${this.publicBaseUrl}/webhooks/twilio/sms-inbound`;
  }
}
