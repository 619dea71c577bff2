import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Agent as HttpsAgent } from 'node:https';
import { createConnection } from 'node:net';
import webpush, { WebPushError } from 'web-push';
import { RpcError } from '@lws/messaging';
import { CLOCK, CONFIG, ConfigError, type BaseConfig, type Clock } from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { EndpointPolicy, guardedLookup } from './endpoint-policy';
import type { ProviderResult } from '../provider/twilio-provider';
import type { Delivery } from '../deliveries/deliveries.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import { VapidKeys } from './vapid-keys';

/**
 * web-push speaks only https; the fake push service (PUSH_TEST_ENDPOINT_ORIGIN, tests) on
 * http:// is reached through an agent that opens a plain TCP connection instead of TLS.
 */
class LoopbackPlainAgent extends HttpsAgent {
  override createConnection(options: { host?: string; port?: number }) {
    return createConnection({ host: options.host ?? '127.0.0.1', port: options.port ?? 80 });
  }
}

export type PushResult = ProviderResult | { ok: false; expired: true; message: string };

@Injectable()
export class PushService {
  private readonly loopbackAgent = new LoopbackPlainAgent();
  /** Every real push goes through this agent: it connects only to the public addresses it checked. */
  private readonly guardedAgent = new HttpsAgent({ lookup: guardedLookup as never, keepAlive: true });
  private readonly policy: EndpointPolicy;

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly vapid: VapidKeys,
    @Inject(CONFIG) config: NotificationsConfig & BaseConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    if (config.PUSH_TEST_ENDPOINT_ORIGIN && config.NODE_ENV === 'production') {
      throw new ConfigError([{ variable: 'PUSH_TEST_ENDPOINT_ORIGIN', message: 'is for tests only and is refused in production' }]);
    }
    this.policy = new EndpointPolicy({ hosts: config.PUSH_ENDPOINT_HOSTS, testOrigin: config.PUSH_TEST_ENDPOINT_ORIGIN });
  }

  async subscribe(userId: number, endpoint: string, keys: { p256dh: string; auth: string }): Promise<string> {
    await this.policy.check(endpoint);
    // The sizes web-push needs to encrypt for this browser: refused here rather than failing every send.
    if (!/^[A-Za-z0-9_-]+=*$/.test(keys.p256dh) || Buffer.from(keys.p256dh, 'base64url').length !== 65) {
      throw new RpcError(400, 'keys.p256dh must be a URL-safe base64 P-256 public key (65 bytes)', { field: 'keys.p256dh' });
    }
    if (!/^[A-Za-z0-9_-]+=*$/.test(keys.auth) || Buffer.from(keys.auth, 'base64url').length !== 16) {
      throw new RpcError(400, 'keys.auth must be a URL-safe base64 secret of 16 bytes', { field: 'keys.auth' });
    }
    return this.subscriptions.upsert({ id: randomUUID(), userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: this.clock() });
  }

  /** Sends one delivery row to its subscription; 404/410 from the push service removes the subscription. */
  async send(row: Delivery): Promise<PushResult> {
    const sub = row.fanoutKey ? await this.subscriptions.find(row.fanoutKey) : undefined;
    if (!sub) return { ok: false, expired: true, message: 'The push subscription no longer exists' };
    const url = new URL(sub.endpoint);
    if (!this.policy.allows(url)) {
      // Stored before the allow-list (or the list changed): never POSTed to.
      await this.subscriptions.delete(sub.id);
      return { ok: false, expired: true, message: 'The push endpoint is not on an allowed push service: subscription removed' };
    }
    const test = this.policy.isTestEndpoint(url);
    const payload = JSON.stringify({
      title: row.title || 'LWS',
      body: row.body,
      purpose: row.purpose,
      messageId: row.id,
      ...(row.alarmId ? { alarmId: row.alarmId } : {}),
      ...(row.userId ? { userId: row.userId } : {}),
      // What a tap opens: the worker's own screen for their reminders and alarms, a
      // monitor's dashboard (where the alarm waits) for anyone else's.
      url: row.userId !== null && sub.userId === row.userId ? '/worker' : '/',
    });
    try {
      const res = await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
        vapidDetails: { subject: this.vapid.subject, publicKey: this.vapid.publicKey, privateKey: this.vapid.privateKey },
        TTL: 3600,
        urgency: 'high',
        timeout: 10_000,
        agent: test && url.protocol === 'http:' ? this.loopbackAgent : this.guardedAgent,
      });
      return { ok: true, sid: sub.id, status: res.statusCode >= 200 && res.statusCode < 300 ? 'sent' : `http_${res.statusCode}` };
    } catch (err) {
      if (err instanceof WebPushError) {
        if (err.statusCode === 404 || err.statusCode === 410) {
          await this.subscriptions.delete(sub.id);
          return { ok: false, expired: true, message: `The push service answered ${err.statusCode}: subscription expired and removed` };
        }
        const transient = err.statusCode >= 500 || err.statusCode === 429;
        return { ok: false, transient, code: err.statusCode, message: `The push service answered ${err.statusCode}` };
      }
      return { ok: false, transient: true, message: `Push service unreachable: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
}
