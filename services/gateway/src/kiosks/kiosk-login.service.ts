import { createHash } from 'node:crypto';
import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { KIOSK_SESSION_IDLE_SECONDS } from '../sessions/cookies';
import { publicUser } from '../auth/auth.service';
import { kioskLocationName, locationNames } from './kiosk-view';
import { withDuress } from '../credentials/pin-check';

export const NOT_A_KIOSK = 'This device is not an enrolled kiosk';
export const TOO_MANY_PIN_ATTEMPTS = 'Too many attempts on this kiosk. Please wait a few minutes and try again.';

/**
 * PIN login at an enrolled kiosk: the worker picked on the roster (or typed a username), then the
 * PIN. A wrong PIN counts toward that worker's lockout in identity; the device is also throttled
 * here, before identity is asked, so one kiosk cannot try PIN after PIN across the roster.
 */
@Injectable()
export class KioskLoginService {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(COUNTERS) private readonly counters: Counters,
  ) {}

  /** `token` is the device cookie; identity answers 403 when it is unknown or revoked. */
  async login(token: string, who: { userId?: number; username?: string }, pin: string) {
    // Keyed by the token's hash: the device is limited, and no usable token sits in Redis.
    const deviceKey = `kiosk-pin:${createHash('sha256').update(token).digest('hex')}`;
    if ((await this.counters.peek(deviceKey)) >= this.config.KIOSK_PIN_MAX_FAILURES) {
      throw new HttpException({ message: TOO_MANY_PIN_ATTEMPTS }, 429);
    }
    let reply: CommandMap['identity.kiosk.pin_login.v1']['reply'];
    try {
      reply = await this.rpc.send('identity.kiosk.pin_login.v1', { token, pin, ...who });
    } catch (err) {
      if (err instanceof RemoteError && err.status === 401) await this.counters.hit(deviceKey, this.config.KIOSK_PIN_WINDOW_SECONDS);
      throw err;
    }
    const { user, kioskId, kioskLocationId, duress } = reply;
    // The location's name as it is now (identity keeps the one it was enrolled at).
    const kioskLocation =
      kioskLocationId !== undefined
        ? kioskLocationName(await locationNames(this.rpc), kioskLocationId, reply.kioskLocation)
        : reply.kioskLocation;
    const session = {
      userId: user.id,
      role: user.role,
      username: user.username,
      name: user.name,
      remember: false,
      kiosk: true,
      kioskId,
      kioskLocation,
      ...(kioskLocationId !== undefined ? { kioskLocationId } : {}),
      createdAt: new Date().toISOString(),
    };
    const sessionId = await withDuress(this.rpc, user.id, duress === true, () => this.sessions.create(session, KIOSK_SESSION_IDLE_SECONDS));
    // As /api/auth/me answers a kiosk session: its screens start shifts at the kiosk's location.
    return { sessionId, user: { ...publicUser(user), kiosk: { location: kioskLocation } } };
  }
}
