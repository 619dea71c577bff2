import { SOURCE_LANGUAGE } from '@lws/i18n';
import { HttpException, Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { SESSION_STORE, type SessionData, type SessionStore } from '../sessions/session.store';
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
    return this.openSession(user, input.rememberMe);
  }

  /** The session a password sign-in and a single sign-on both end in. */
  async openSession(user: UserView, remember: boolean, sso?: SessionData['sso']) {
    const sessionId = await this.sessions.create(
      {
        userId: user.id,
        role: user.role as 'worker' | 'admin' | 'superadmin',
        username: user.username,
        name: user.name,
        remember,
        kiosk: false,
        createdAt: new Date().toISOString(),
        ...(sso ? { sso } : {}),
      },
      sessionTtlSeconds(remember),
    );
    return { sessionId, user: publicUser(user) };
  }

  /** The signed-in user, with whether a PIN is set and whether the password is a temporary one. */
  async currentUser(userId: number) {
    const { user } = await this.rpc.send('identity.user.get.v1', { userId });
    if (user.disabled) throw new AccountClosed();
    return {
      ...publicUser(user),
      pinSet: user.pinSet,
      passwordIsTemporary: user.passwordIsTemporary,
      duressPinSet: user.duressPinSet === true,
    };
  }

  /** The provider's sign-out address; undefined when it offers none or cannot be asked now. */
  async providerLogoutUrl(sso: NonNullable<SessionData['sso']>, postLogoutRedirectUri: string): Promise<string | undefined> {
    try {
      const { url } = await this.rpc.send('identity.sso.logout_url.v1', { ...sso, postLogoutRedirectUri });
      return url;
    } catch {
      // Signing out of LWS has happened; the provider's session is a courtesy.
      return undefined;
    }
  }

  logout(sessionId: string | undefined) {
    return sessionId ? this.sessions.destroy(sessionId) : Promise.resolve();
  }
}

/** The account was deleted or deactivated since the session began. */
export class AccountClosed extends Error {}

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
