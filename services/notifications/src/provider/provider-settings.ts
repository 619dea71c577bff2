import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
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

/**
 * Sends the SDK's requests to the fake provider instead of api.twilio.com: the SDK, its
 * serialisation, auth and error handling all run as they would against Twilio.
 */
class FakeProviderRequestClient extends twilio.RequestClient {
  constructor(private readonly baseUrl: string) {
    super({ timeout: REQUEST_TIMEOUT_MS });
  }

  override request<T>(opts: RequestClient.RequestOptions<T>) {
    return super.request({ ...opts, uri: opts.uri.replace(/^https:\/\/[a-z0-9.-]+\.twilio\.com/, this.baseUrl) });
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
      const problems: { variable: string; message: string }[] = missing.map((variable) => ({ variable, message: 'is required in production' }));
      if (c.FAKE_TWILIO_URL) problems.push({ variable: 'FAKE_TWILIO_URL', message: 'the fake provider cannot be used in production' });
      if (problems.length > 0) throw new ConfigError(problems);
    }
    this.publicBaseUrl = c.PUBLIC_BASE_URL ?? DEFAULT_PUBLIC_BASE_URL;

    if (c.TWILIO_ACCOUNT_SID) {
      const problems: { variable: string; message: string }[] = (['TWILIO_AUTH_TOKEN', 'TWILIO_FROM_NUMBER'] as const)
        .filter((v) => !c[v])
        .map((variable) => ({ variable, message: 'is required when TWILIO_ACCOUNT_SID is set' }));
      if (c.FAKE_TWILIO_URL) problems.push({ variable: 'FAKE_TWILIO_URL', message: 'cannot be combined with a real Twilio account (TWILIO_ACCOUNT_SID)' });
      if (problems.length > 0) throw new ConfigError(problems);
      this.accountSid = c.TWILIO_ACCOUNT_SID;
      this.authToken = c.TWILIO_AUTH_TOKEN!;
      this.fromNumber = c.TWILIO_FROM_NUMBER!;
      this.whatsappFrom = c.TWILIO_WHATSAPP_FROM ?? this.fromNumber;
      this.client = twilio(this.accountSid, this.authToken, { httpClient: new twilio.RequestClient({ timeout: REQUEST_TIMEOUT_MS }) });
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
    this.client = twilio(this.accountSid, this.authToken, { httpClient: new FakeProviderRequestClient(url) });
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
