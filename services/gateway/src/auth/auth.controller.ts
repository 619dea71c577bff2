import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UnauthorizedException } from '@nestjs/common';
import type { Response } from 'express';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { kioskLocationName, locationNames } from '../kiosks/kiosk-view';
import { parseInput } from '../common/validation';
import { Public, type AuthedRequest } from '../common/session.guard';
import { SESSION_COOKIE, sessionCookieOptions } from '../sessions/cookies';
import { clearHint, setHint, SIGNED_IN_HINT } from '../sessions/hints';
import { loginSchema, logoutSchema } from './auth.schema';
import { AccountClosed, AuthService } from './auth.service';
import { ssoUris } from './sso.controller';

@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(RPC) private readonly rpc: RpcClient,
  ) {}

  @Public()
  @Post('login')
  @HttpCode(200)
  async login(@Body() body: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const input = parseInput(loginSchema, body);
    const { sessionId, user } = await this.auth.login(input, req.ip ?? 'unknown');
    // A fresh id on every login: a session id planted before login is never promoted.
    await this.auth.logout(req.sessionId);
    res.cookie(SESSION_COOKIE, sessionId, sessionCookieOptions(req, this.config.COOKIE_SECURE, input.rememberMe));
    setHint(req, res, this.config.COOKIE_SECURE, SIGNED_IN_HINT);
    return user;
  }

  @Public()
  @Post('logout')
  @HttpCode(200)
  async logout(@Body() body: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const { fromKiosk } = parseInput(logoutSchema, body);
    const sso = req.session?.sso;
    await this.auth.logout(req.sessionId);
    const { maxAge: _ignored, ...opts } = sessionCookieOptions(req, this.config.COOKIE_SECURE, false);
    res.clearCookie(SESSION_COOKIE, opts);
    clearHint(res, SIGNED_IN_HINT);
    const kiosk = fromKiosk || req.get('x-kiosk-mode') === 'true';
    // Signed in through the organisation's provider: its session ends too, where it offers that.
    const providerLogoutUrl =
      sso && !kiosk ? await this.auth.providerLogoutUrl(sso, ssoUris(this.config, req).postLogoutRedirectUri) : undefined;
    return { ok: true, redirectTo: kiosk ? '/kiosk' : '/login', ...(providerLogoutUrl ? { providerLogoutUrl } : {}) };
  }

  @Get('me')
  async me(@Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    try {
      const user = await this.auth.currentUser(req.session!.userId);
      // At a kiosk the screens sign out after 2 minutes without input and start shifts at its
      // location, named as it is now: a rename during the session follows the kiosk's location id.
      const session = req.session!;
      if (!session.kiosk) return user;
      const location =
        session.kioskLocationId !== undefined
          ? kioskLocationName(await locationNames(this.rpc), session.kioskLocationId, session.kioskLocation ?? '')
          : session.kioskLocation;
      return { ...user, kiosk: { location: location || null } };
    } catch (err) {
      if (err instanceof AccountClosed || (err instanceof RemoteError && err.status === 404)) {
        // The account was deleted or deactivated: its session must not outlive it.
        await this.auth.logout(req.sessionId);
        res.clearCookie(SESSION_COOKIE, { path: '/' });
        clearHint(res, SIGNED_IN_HINT);
        throw new UnauthorizedException({ message: 'Not authenticated' });
      }
      throw err;
    }
  }
}
