import { Controller, Get, Inject } from '@nestjs/common';
import { CLOCK, type Clock } from '@lws/platform';

/** The server owns time: browsers correct their countdowns by the offset to this. */
@Controller('api/time')
export class TimeController {
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  @Get()
  now() {
    return { now: this.clock().toISOString() };
  }
}
