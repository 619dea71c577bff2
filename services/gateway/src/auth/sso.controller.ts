import { randomBytes } from 'node:crypto';
import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { type Logger, LOGGER } from '@lws/platform';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { parseInput } from '../common/validation';
import { Public, type AuthedRequest } from '../common/session.guard';
import { SESSION_COOKIE, sessionCookieOptions } from '../sessions/cookies';
import { setHint, SIGNED_IN_HINT } from '../sessions/hints';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { AuthService } from './auth.service';
import { digest, PENDING_SIGN_IN_SECONDS, PENDING_SIGN_INS, type PendingSignIns } from './sso-state';

export const SSO_BINDING_COOKIE = 'lws_sso';
const SSO_PATH = '/api/auth/sso';

/** Where the provider sends the browser back, and where its sign-out returns. */
export function ssoUris(config: GatewayConfig, req: Request) {
  const origin = (config.PUBLIC_ORIGIN ?? `${req.protocol}://${req.get('host')}`).replace(/\/$/, '');
  return { redirectUri: `${origin}${SSO_PATH}/callback`, postLogoutRedirectUri: `${origin}/login` };
}

/** A path on this site only: never another origin ("//evil.example", "/\\evil.example"). */
export const ssoStartQuery = z
  .object({
    next: z
      .string()
      .max(2000, 'next must be at most 2000 characters')
      .refine((p) => /^\/(?![/\\])/.test(p), 'next must be a path on this site')
      .optional(),
  })
  .strict();

/** Failures the login page explains; the reasons stay in the logs. */
type SsoError = 'failed' | 'refused' | 'expired';

/**
 * Single sign-on by OpenID Connect (authorization code + PKCE). The gateway keeps the sign-in's
 * state (one use, 10 minutes, bound to the browser by a cookie) and, once identity has verified
 * the provider's answer and named the account, opens the same session a password sign-in opens.
 */
@Controller('api/auth/sso')
export class SsoController {
  constructor(
    private readonly auth: AuthService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(PENDING_SIGN_INS) private readonly pending: PendingSignIns,
    @Inject(COUNTERS) private readonly counters: Counters,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** What the login page offers, before anyone signs in. */
  @Public()
  @Get()
  info() {
    return this.rpc.send('identity.sso.public.v1', {});
  }

  @Public()
  @Get('start')
  async start(@Query() query: unknown, @Req() req: AuthedRequest, @Res() res: Response) {
    const { next } = parseInput(ssoStartQuery, query);
    const c = this.config;
    if ((await this.counters.hit(`sso-ip:${req.ip ?? 'unknown'}`, c.LOGIN_IP_WINDOW_SECONDS)) > c.LOGIN_MAX_ATTEMPTS_PER_IP) {
      return this.back(res, 'failed');
    }
    let begun: CommandMap['identity.sso.begin.v1']['reply'];
    try {
      begun = await this.rpc.send('identity.sso.begin.v1', { redirectUri: ssoUris(c, req).redirectUri });
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      return this.back(res, 'failed');
    }
    const binding = randomBytes(32).toString('base64url');
    await this.pending.put(begun.state, {
      nonce: begun.nonce,
      codeVerifier: begun.codeVerifier,
      binding: digest(binding),
      ...(next ? { next } : {}),
    });
    // Lax: the provider's redirect back is a top-level GET, which carries it.
    res.cookie(SSO_BINDING_COOKIE, binding, {
      ...sessionCookieOptions(req, c.COOKIE_SECURE, false),
      path: SSO_PATH,
      maxAge: PENDING_SIGN_IN_SECONDS * 1000,
    });
    res.redirect(302, begun.authorizationUrl);
  }

  @Public()
  @Get('callback')
  async callback(@Req() req: AuthedRequest, @Res() res: Response) {
    const state = typeof req.query.state === 'string' ? req.query.state : undefined;
    const binding = req.cookies?.[SSO_BINDING_COOKIE] as string | undefined;
    res.clearCookie(SSO_BINDING_COOKIE, { path: SSO_PATH });
    const pending = state ? await this.pending.take(state) : undefined;
    if (!state || !pending || !binding || digest(binding) !== pending.binding) {
      this.logger.warn(
        { hasState: Boolean(state), known: Boolean(pending) },
        'single sign-on callback refused: unknown, used or foreign state',
      );
      return this.back(res, 'expired');
    }
    if (typeof req.query.error === 'string') {
      this.logger.warn({ error: req.query.error.slice(0, 100) }, 'single sign-on: the provider answered with an error');
      return this.back(res, 'failed');
    }
    const { redirectUri } = ssoUris(this.config, req);
    const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    let done: CommandMap['identity.sso.complete.v1']['reply'];
    try {
      done = await this.rpc.send('identity.sso.complete.v1', {
        callbackUrl: `${redirectUri}${search}`,
        redirectUri,
        state,
        nonce: pending.nonce,
        codeVerifier: pending.codeVerifier,
      });
    } catch (err) {
      if (!(err instanceof RemoteError)) throw err;
      return this.back(res, err.status === 403 ? 'refused' : 'failed');
    }
    const { sessionId } = await this.auth.openSession(done.user, false, { idToken: done.idToken, issuer: done.issuer });
    // A fresh id on every sign-in: a session id planted before it is never promoted.
    await this.auth.logout(req.sessionId);
    res.cookie(SESSION_COOKIE, sessionId, sessionCookieOptions(req, this.config.COOKIE_SECURE, false));
    setHint(req, res, this.config.COOKIE_SECURE, SIGNED_IN_HINT);
    res.redirect(302, pending.next ?? '/');
  }

  private back(res: Response, error: SsoError) {
    res.redirect(302, `/login?sso_error=${error}`);
  }
}
