import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { PositiveIntPipe } from '../common/access';
import { parseInput } from '../common/validation';
import { Public, Roles, type AuthedRequest } from '../common/session.guard';
import { SESSION_COOKIE, sessionCookieOptions } from '../sessions/cookies';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { KIOSK_COOKIE, kioskCookieOptions, kioskToken } from './kiosk-cookie';
import { KioskLoginService, NOT_A_KIOSK } from './kiosk-login.service';
import { browserKiosk } from './kiosk-view';
import { enrolKioskSchema, pinLoginSchema } from './kiosks.schema';

@Controller()
export class KiosksController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly kioskLogin: KioskLoginService,
  ) {}

  /** The admin enrols from the terminal itself: this browser receives the device cookie. */
  @Post('api/kiosks')
  @Roles('admin', 'superadmin')
  async enrol(@Body() body: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const input = parseInput(enrolKioskSchema, body);
    const { kiosk, token } = await this.rpc.send('identity.kiosk.enrol.v1', { ...input, enrolledBy: req.session!.userId });
    res.cookie(KIOSK_COOKIE, token, kioskCookieOptions(req, this.config.COOKIE_SECURE));
    return browserKiosk(kiosk);
  }

  @Get('api/kiosks')
  @Roles('admin', 'superadmin')
  async list() {
    const { kiosks } = await this.rpc.send('identity.kiosk.list.v1', {});
    return kiosks.map(browserKiosk);
  }

  @Public()
  @Get('api/kiosks/current')
  async current(@Req() req: AuthedRequest) {
    const token = kioskToken(req);
    if (!token) return { enrolled: false };
    return this.rpc.send('identity.kiosk.current.v1', { token });
  }

  @Delete('api/kiosks/:id')
  @Roles('admin', 'superadmin')
  async revoke(@Param('id', new PositiveIntPipe('id', 'Invalid kiosk ID')) id: number) {
    await this.rpc.send('identity.kiosk.revoke.v1', { kioskId: id });
    // Whoever is still signed in at it is signed out now, not at the session's end.
    await this.sessions.destroyAllForKiosk(id);
    return { ok: true };
  }

  /** Who may sign in here (first name and last initial), for the kiosk's picker; only an enrolled kiosk may ask. */
  @Public()
  @Get('api/kiosks/roster')
  async roster(@Req() req: AuthedRequest) {
    const token = kioskToken(req);
    if (!token) throw new ForbiddenException({ message: NOT_A_KIOSK });
    const { name, location, workers } = await this.rpc.send('identity.kiosk.roster.v1', { token });
    return { name, location, workers: workers.map((w) => ({ id: w.userId, label: w.label })) };
  }

  /** A browser-session cookie (never remember-me): a shared terminal must not keep a worker signed in. */
  @Public()
  @Post('api/auth/pin-login')
  @HttpCode(200)
  async pinLogin(@Body() body: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const token = kioskToken(req);
    if (!token) throw new ForbiddenException({ message: NOT_A_KIOSK });
    const { pin, userId, username } = parseInput(pinLoginSchema, body);
    const { sessionId, user } = await this.kioskLogin.login(token, { userId, username }, pin);
    // A fresh id on every login: a session id planted before login is never promoted.
    if (req.sessionId) await this.sessions.destroy(req.sessionId);
    res.cookie(SESSION_COOKIE, sessionId, sessionCookieOptions(req, this.config.COOKIE_SECURE, false));
    return user;
  }
}
