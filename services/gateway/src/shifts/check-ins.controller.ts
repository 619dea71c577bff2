import { Body, Controller, Headers, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { verifyWorkerPin } from '../credentials/pin-check';
import { requireOwnShift } from './own-shift';
import { checkInSchema, checkInUserSchema, extendSchema, parseIdempotencyKey } from './shifts.schema';
import { browserWorker, extensionFields } from './worker.view';

@Controller('api/check-ins')
export class CheckInsController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /**
   * "+15 min": the worker's current deadline moves on 15 minutes, within what the
   * shift allows (409 naming why not: off shift, already overdue, none left). No PIN: it asks for
   * more time, and says nothing about being safe. Answers the worker with the new nextCheckInTime.
   */
  @Post('extend')
  @HttpCode(200)
  async extend(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { userId } = parseInput(checkInUserSchema, body);
    requireOwnShift(actorOf(req), userId);
    const { minutes } = parseInput(extendSchema, body);
    const { worker } = await this.rpc.send('shifts.deadline.extend.v1', { userId, minutes });
    return { ...browserWorker(worker), ...extensionFields(worker) };
  }

  /**
   * "I'm safe": the PIN is verified by identity first (400 wrong, 423 locked: nothing recorded;
   * the duress PIN checks in as the PIN does, and shifts raises a silent duress emergency in the
   * same transaction, so the answer takes the PIN's path), then shifts records it and computes the
   * next deadline. A repeat within 5 s, or with an Idempotency-Key already used, answers the first
   * check-in. `madeAt`: a check-in the worker app kept offline counts from when it was made (409
   * when the next deadline has passed since).
   */
  @Post()
  async record(@Body() body: unknown, @Headers('idempotency-key') keyHeader: string | undefined, @Req() req: AuthedRequest) {
    const { userId } = parseInput(checkInUserSchema, body);
    requireOwnShift(actorOf(req), userId);
    const { location, pin, position, madeAt } = parseInput(checkInSchema, body);
    const idempotencyKey = parseIdempotencyKey(keyHeader);
    const { duress } = await verifyWorkerPin(this.rpc, userId, pin);
    const { checkIn, worker } = await this.rpc.send('shifts.checkin.record.v1', {
      userId,
      ...(duress ? { duress } : {}),
      ...(location ? { location } : {}),
      ...(idempotencyKey ? { idempotencyKey } : {}),
      ...(madeAt ? { madeAt } : {}),
      ...(position
        ? {
            position: {
              lat: position.lat,
              lng: position.lng,
              ...(position.accuracy !== undefined ? { accuracyM: position.accuracy } : {}),
            },
          }
        : {}),
    });
    return {
      id: checkIn.id,
      userId,
      timestamp: checkIn.checkedInAt,
      location: checkIn.location,
      status: 'safe',
      nextCheckInTime: checkIn.nextCheckInAt,
      user: browserWorker(worker),
    };
  }
}
