import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { z } from 'zod';
import { CLOCK, LOGGER, testClock, type Clock, type Logger } from '@lws/platform';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';

const MOVE = 'Send advanceMinutes or offsetMs';

export const moveSchema = z
  .object({
    advanceMinutes: z.number({ invalid_type_error: 'advanceMinutes must be a number' }).finite().optional(),
    offsetMs: z.number({ invalid_type_error: 'offsetMs must be a number' }).int('offsetMs must be a whole number').optional(),
  })
  .strict(MOVE)
  .refine((b) => (b.advanceMinutes === undefined) !== (b.offsetMs === undefined), MOVE);

/**
 * Exists only when LWS_TEST_CLOCK=1 (never in production: the configuration refuses it). It moves
 * the clock of this process, which in `npm start` and the tests is every service's clock.
 */
@Controller('api/test-clock')
export class TestClockController {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get()
  read() {
    return { now: this.clock().toISOString(), offsetMs: testClock.offsetMs() };
  }

  @Post()
  @Roles('superadmin')
  @HttpCode(200)
  move(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { advanceMinutes, offsetMs } = parseInput(moveSchema, body);
    try {
      if (offsetMs !== undefined) testClock.setOffsetMs(offsetMs);
      else testClock.advanceMs(Math.round(advanceMinutes! * 60_000));
    } catch (err) {
      if (err instanceof RangeError)
        throw new BadRequestException({
          message: 'The test clock can move at most a year either way',
          field: offsetMs !== undefined ? 'offsetMs' : 'advanceMinutes',
        });
      throw err;
    }
    this.logger.warn({ offsetMs: testClock.offsetMs(), by: req.session!.userId }, 'test clock moved');
    return this.read();
  }
}
