import {
  BadRequestException,
  Body,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RPC } from '../common/rpc';
import { actorOf, adminTeams, PositiveIntPipe, type Actor } from '../common/access';
import { parseInput } from '../common/validation';
import { Public, Roles, type AuthedRequest } from '../common/session.guard';
import { SESSION_COOKIE, sessionCookieOptions } from '../sessions/cookies';
import { KIOSK_HINT, setHint, SIGNED_IN_HINT } from '../sessions/hints';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { KIOSK_COOKIE, kioskCookieOptions, kioskToken } from './kiosk-cookie';
import { KioskLoginService, NOT_A_KIOSK } from './kiosk-login.service';
import { browserKiosk, kioskLocationName, locationNames } from './kiosk-view';
import { enrolKioskRequestSchema, KIOSK_NOT_FOUND, LOCATION_NOT_FOUND, NOT_YOUR_LOCATION, pinLoginSchema } from './kiosks.schema';

@Controller()
export class KiosksController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    private readonly kioskLogin: KioskLoginService,
  ) {}

  /**
   * The admin enrols from the terminal itself: this browser receives the device cookie. The kiosk is
   * bound to the location's id, found here by id or by name, so a later rename never moves it.
   */
  @Post('api/kiosks')
  @Roles('admin', 'superadmin')
  async enrol(@Body() body: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const input = parseInput(enrolKioskRequestSchema, body);
    const [{ locations }, mine] = await Promise.all([this.rpc.send('locations.location.list.v1', {}), this.teamLocations(actorOf(req))]);
    const field = input.locationId !== undefined ? 'locationId' : 'location';
    const place =
      input.locationId !== undefined
        ? locations.find((l) => l.id === input.locationId)
        : locations.find((l) => l.name.toLowerCase() === input.location!.toLowerCase());
    if (!place) throw new BadRequestException({ message: LOCATION_NOT_FOUND, field });
    if (mine && !mine.has(place.id)) throw new BadRequestException({ message: NOT_YOUR_LOCATION, field });
    const { kiosk, token } = await this.rpc.send('identity.kiosk.enrol.v1', {
      name: input.name,
      location: place.name,
      locationId: place.id,
      enrolledBy: req.session!.userId,
    });
    res.cookie(KIOSK_COOKIE, token, kioskCookieOptions(req, this.config.COOKIE_SECURE));
    setHint(req, res, this.config.COOKIE_SECURE, KIOSK_HINT);
    return browserKiosk(kiosk, new Map(locations.map((l) => [l.id, l.name])));
  }

  @Get('api/kiosks')
  @Roles('admin', 'superadmin')
  async list(@Req() req: AuthedRequest) {
    const [kiosks, names] = await Promise.all([this.visibleKiosks(actorOf(req)), locationNames(this.rpc)]);
    return kiosks.map((k) => browserKiosk(k, names));
  }

  @Public()
  @Get('api/kiosks/current')
  async current(@Req() req: AuthedRequest) {
    const token = kioskToken(req);
    if (!token) return { enrolled: false };
    const here = await this.rpc.send('identity.kiosk.current.v1', { token });
    if (!here.enrolled) return { enrolled: false };
    const names = here.locationId !== undefined ? await locationNames(this.rpc) : new Map<number, string>();
    return { enrolled: true, name: here.name, location: kioskLocationName(names, here.locationId, here.location ?? '') };
  }

  @Delete('api/kiosks/:id')
  @Roles('admin', 'superadmin')
  async revoke(@Param('id', new PositiveIntPipe('id', 'Invalid kiosk ID')) id: number, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    if (actor.role === 'admin' && !(await this.visibleKiosks(actor)).some((k) => k.id === id)) {
      throw new NotFoundException({ message: KIOSK_NOT_FOUND, field: 'id' });
    }
    await this.rpc.send('identity.kiosk.revoke.v1', { kioskId: id });
    // Whoever is still signed in at it is signed out now, not at the session's end.
    await this.sessions.destroyAllForKiosk(id);
    return { ok: true };
  }

  /**
   * Who signs in here (first name and last initial), for the kiosk's picker: the workers of the
   * teams working at its location. Only an enrolled kiosk may ask.
   */
  @Public()
  @Get('api/kiosks/roster')
  async roster(@Req() req: AuthedRequest) {
    const token = kioskToken(req);
    if (!token) throw new ForbiddenException({ message: NOT_A_KIOSK });
    // Identity reads the kiosk's own location id: the roster holds the teams working there.
    const { name, location, locationId, workers } = await this.rpc.send('identity.kiosk.roster.v1', { token });
    const names = locationId !== undefined ? await locationNames(this.rpc) : new Map<number, string>();
    return {
      name,
      location: kioskLocationName(names, locationId, location),
      workers: workers.map((w) => ({ id: w.userId, label: w.label })),
    };
  }

  /** Every kiosk for the superadmin; an admin's are those bound to their teams' locations. */
  private async visibleKiosks(actor: Actor) {
    const [{ kiosks }, mine] = await Promise.all([this.rpc.send('identity.kiosk.list.v1', {}), this.teamLocations(actor)]);
    return mine ? kiosks.filter((k) => k.locationId !== undefined && mine.has(k.locationId)) : kiosks;
  }

  /**
   * The ids of the locations of the teams an admin monitors or deputises for; absent when they see
   * every kiosk (the superadmin, an admin of every team). By id: renaming a location changes nothing.
   */
  private async teamLocations(actor: Actor): Promise<Set<number> | undefined> {
    if (actor.role !== 'admin') return undefined;
    const [scope, { teams }] = await Promise.all([
      adminTeams(this.rpc, actor, false),
      this.rpc.send('identity.team.list.v1', { monitoredBy: actor.userId }),
    ]);
    if (!scope || scope.all) return undefined;
    return new Set(teams.flatMap((t) => t.locationIds));
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
    setHint(req, res, this.config.COOKIE_SECURE, SIGNED_IN_HINT);
    return user;
  }
}
