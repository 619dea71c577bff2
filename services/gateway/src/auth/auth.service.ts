import { SOURCE_LANGUAGE } from '@lws/i18n';
import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { sessionTtlSeconds } from '../sessions/cookies';

type UserView = CommandMap['identity.user.get.v1']['reply']['user'];

export const TOO_MANY_ATTEMPTS = 'Too many login attempts. Please wait a few minutes and try again.';

@Injectable()
export class AuthService {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(COUNTERS) private readonly counters: Counters,
  ) {}

  /**
   * Checks the per-IP and per-username limits before asking identity, so a guessing
   * attack costs no password hashing once it is throttled.
   */
  async login(input: { username: string; password: string; rememberMe: boolean }, ip: string) {
    const c = this.config;
    const ipHits = await this.counters.hit(`login-ip:${ip}`, c.LOGIN_IP_WINDOW_SECONDS);
    const userKey = `login-user:${input.username}`;
    if (ipHits > c.LOGIN_MAX_ATTEMPTS_PER_IP || (await this.counters.peek(userKey)) >= c.LOGIN_MAX_FAILURES_PER_USERNAME) {
      throw new HttpException({ message: TOO_MANY_ATTEMPTS }, 429);
    }
    let user: UserView;
    try {
      ({ user } = await this.rpc.send('identity.auth.verify_password.v1', { username: input.username, password: input.password }));
    } catch (err) {
      if (err instanceof RemoteError && err.status === 401) await this.counters.hit(userKey, c.LOGIN_USERNAME_WINDOW_SECONDS);
      throw err;
    }
    await this.counters.reset(userKey);
    const sessionId = await this.sessions.create(
      {
        userId: user.id,
        role: user.role as 'worker' | 'admin' | 'superadmin',
        username: user.username,
        name: user.name,
        remember: input.rememberMe,
        kiosk: false,
        createdAt: new Date().toISOString(),
      },
      sessionTtlSeconds(input.rememberMe),
    );
    return { sessionId, user: publicUser(user) };
  }

  /** The signed-in user, with whether a PIN is set and whether the password is a temporary one. */
  async currentUser(userId: number) {
    const { user } = await this.rpc.send('identity.user.get.v1', { userId });
    return {
      ...publicUser(user),
      pinSet: user.pinSet,
      passwordIsTemporary: user.passwordIsTemporary,
      duressPinSet: user.duressPinSet === true,
    };
  }

  logout(sessionId: string | undefined) {
    return sessionId ? this.sessions.destroy(sessionId) : Promise.resolve();
  }
}

/** The browser's view of the signed-in user. */
export function publicUser(user: UserView) {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    role: user.role,
    ...(user.phone ? { phone: user.phone } : {}),
    // The screens speak it as soon as the user signs in.
    language: user.language ?? SOURCE_LANGUAGE,
  };
}
