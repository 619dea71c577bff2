import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Agent as HttpsAgent } from 'node:https';
import { createConnection } from 'node:net';
import webpush, { WebPushError } from 'web-push';
import { RpcError } from '@lws/messaging';
import { CLOCK, CONFIG, type BaseConfig, type Clock } from '@lws/platform';
import type { ProviderResult } from '../provider/twilio-provider';
import type { Delivery } from '../deliveries/deliveries.repository';
import { SubscriptionsRepository } from './subscriptions.repository';
import { VapidKeys } from './vapid-keys';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * web-push speaks only https; a local push service (development, tests) on http://127.0.0.1 is
 * reached through an agent that opens a plain TCP connection instead of TLS.
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

  constructor(
    private readonly subscriptions: SubscriptionsRepository,
    private readonly vapid: VapidKeys,
    @Inject(CONFIG) private readonly config: BaseConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async subscribe(userId: number, endpoint: string, keys: { p256dh: string; auth: string }): Promise<string> {
    this.checkEndpoint(endpoint);
    // The sizes web-push needs to encrypt for this browser: refused here rather than failing every send.
    if (!/^[A-Za-z0-9_-]+=*$/.test(keys.p256dh) || Buffer.from(keys.p256dh, 'base64url').length !== 65) {
      throw new RpcError(400, 'keys.p256dh must be a URL-safe base64 P-256 public key (65 bytes)', { field: 'keys.p256dh' });
    }
    if (!/^[A-Za-z0-9_-]+=*$/.test(keys.auth) || Buffer.from(keys.auth, 'base64url').length !== 16) {
      throw new RpcError(400, 'keys.auth must be a URL-safe base64 secret of 16 bytes', { field: 'keys.auth' });
    }
    return this.subscriptions.upsert({ id: randomUUID(), userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: this.clock() });
  }

  /** https only; http is allowed for a push service on this machine outside production. */
  private checkEndpoint(endpoint: string): void {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      throw new RpcError(400, 'endpoint must be a URL', { field: 'endpoint' });
    }
    if (url.protocol === 'https:') return;
    if (url.protocol === 'http:' && LOOPBACK.has(url.hostname) && this.config.NODE_ENV !== 'production') return;
    throw new RpcError(400, 'endpoint must be an https:// URL', { field: 'endpoint' });
  }

  /** Sends one delivery row to its subscription; 404/410 from the push service removes the subscription. */
  async send(row: Delivery): Promise<PushResult> {
    const sub = row.fanoutKey ? await this.subscriptions.find(row.fanoutKey) : undefined;
    if (!sub) return { ok: false, expired: true, message: 'The push subscription no longer exists' };
    const plain = new URL(sub.endpoint).protocol === 'http:';
    const payload = JSON.stringify({
      title: row.title || 'LWS',
      body: row.body,
      purpose: row.purpose,
      messageId: row.id,
      ...(row.alarmId ? { alarmId: row.alarmId } : {}),
      ...(row.userId ? { userId: row.userId } : {}),
    });
    try {
      const res = await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
        vapidDetails: { subject: this.vapid.subject, publicKey: this.vapid.publicKey, privateKey: this.vapid.privateKey },
        TTL: 3600,
        urgency: 'high',
        timeout: 10_000,
        ...(plain ? { agent: this.loopbackAgent } : {}),
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
