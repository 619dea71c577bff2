import { BadRequestException, Body, Controller, ForbiddenException, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { VISIT_TYPE_UNKNOWN } from '@lws/schemas';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { actorOf, authorizeUserAccess, PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { verifyWorkerPin } from '../credentials/pin-check';
import { requireOwnShift, WORKERS_ONLY } from './own-shift';
import { endShiftSchema, endVisitSchema, startShiftSchema, startVisitSchema } from './shifts.schema';
import { browserCheckIn, browserWorker, extensionFields } from './worker.view';
import { TokenScope } from '../api-tokens/token-scope';
import { CLOCK, LOGGER, type Clock, type Logger } from '@lws/platform';
import { checkCover } from './cover';

@Controller('api/users/:id')
export class ShiftsController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * At an active location; starting again while on shift answers the shift in progress. A team
   * that needs cover refuses (409 naming `cover`) or warns (`coverWarning`) when nobody is on call
   * for part of the shift's first 8 hours.
   */
  @Post('start-shift')
  @HttpCode(200)
  async start(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    // A worker starts their own shift; a superadmin may start a worker's (the Test Account
    // dashboard's shift controls), and the activity log names them.
    const forWorker = actor.role === 'superadmin' && actor.userId !== id;
    if (forWorker) {
      const target = await authorizeUserAccess(this.rpc, actor, id);
      if (target.role !== 'worker') throw new ForbiddenException({ message: WORKERS_ONLY });
    } else requireOwnShift(actor, id);
    const { location, note } = parseInput(startShiftSchema, body);
    const coverWarning = await checkCover(this.rpc, id, this.clock(), this.logger);
    const { worker } = await this.rpc.send('shifts.shift.start.v1', {
      userId: id,
      location,
      ...(note ? { note } : {}),
      ...(forWorker ? { startedBy: actor.userId } : {}),
    });
    return { ...browserWorker(worker), ...(coverWarning ? { coverWarning } : {}) };
  }

  /**
   * The PIN goes through identity's one verification path first: 400 wrong, 423 locked, and nothing
   * ends. The duress PIN ends it as the PIN does, and shifts raises a silent duress emergency first.
   */
  @Post('end-shift')
  @HttpCode(200)
  async end(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    requireOwnShift(actorOf(req), id);
    const { pin } = parseInput(endShiftSchema, body);
    const { duress } = await verifyWorkerPin(this.rpc, id, pin);
    const { worker } = await this.rpc.send('shifts.shift.end.v1', { userId: id, ...(duress ? { duress } : {}) });
    return browserWorker(worker);
  }

  /**
   * A timed visit on shift: its end becomes the worker's deadline when sooner than the regular
   * one, and its note is sealed until an alarm of the visit opens. Starting again while one is on
   * answers the visit in progress. 409 off shift.
   */
  @Post('start-visit')
  @HttpCode(200)
  async startVisit(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    requireOwnShift(actorOf(req), id);
    const { where, minutes, note, visitTypeId } = parseInput(startVisitSchema, body);
    const visitType = visitTypeId !== undefined ? await this.visitTypeOf(id, visitTypeId) : undefined;
    const { worker } = await this.rpc.send('shifts.visit.start.v1', {
      userId: id,
      where,
      minutes,
      ...(note ? { note } : {}),
      ...(visitType ? { visitType } : {}),
    });
    return { ...browserWorker(worker), ...extensionFields(worker) };
  }

  /** One of the worker's team's visit types, as shifts keeps it with the visit; 400 naming `visitTypeId` otherwise. */
  private async visitTypeOf(userId: number, typeId: string) {
    const { user } = await this.rpc.send('identity.user.get.v1', { userId });
    const team = user.teamId !== undefined ? (await this.rpc.send('identity.team.get.v1', { teamId: user.teamId })).team : undefined;
    const type = team?.visitTypes.find((v) => v.id === typeId);
    if (!type) throw new BadRequestException({ message: VISIT_TYPE_UNKNOWN, field: 'visitTypeId' });
    return {
      id: type.id,
      name: type.name,
      ...(type.checkInInterval !== undefined ? { checkInInterval: type.checkInInterval } : {}),
      ...(type.smsToo ? { smsToo: true } : {}),
    };
  }

  /**
   * Ends the visit with the PIN (400 wrong, 423 locked: nothing ends): a check-in, and the regular
   * interval again. The duress PIN ends it as the PIN does and raises a silent emergency of the
   * visit first. 409 when no visit is on.
   */
  @Post('end-visit')
  @HttpCode(200)
  async endVisit(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    requireOwnShift(actorOf(req), id);
    const { pin } = parseInput(endVisitSchema, body);
    const { duress } = await verifyWorkerPin(this.rpc, id, pin);
    const { worker } = await this.rpc.send('shifts.visit.end.v1', { userId: id, ...(duress ? { duress } : {}) });
    return { ...browserWorker(worker), ...extensionFields(worker) };
  }

  @Post('force-clock-out')
  @Roles('superadmin')
  @HttpCode(200)
  async forceClockOut(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    await authorizeUserAccess(this.rpc, actor, id);
    const { worker } = await this.rpc.send('shifts.shift.force_end.v1', { userId: id, endedBy: actor.userId });
    return browserWorker(worker);
  }

  /** The latest check-in of the current shift, or JSON null (off shift, or none yet). */
  @Get('latest-check-in')
  @TokenScope('shifts:read')
  async latestCheckIn(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest, @Res() res: Response) {
    await authorizeUserAccess(this.rpc, actorOf(req), id);
    const { checkIn } = await this.rpc.send('shifts.checkin.latest.v1', { userId: id });
    // Written by hand: Nest would answer a null result with an empty body, which is not JSON.
    res.status(200).json(checkIn ? browserCheckIn(checkIn) : null);
  }
}
