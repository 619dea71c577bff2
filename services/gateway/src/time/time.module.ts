import { Module, type DynamicModule } from '@nestjs/common';
import { TestClockController } from './test-clock.controller';
import { TimeController } from './time.controller';

/** `GET /api/time` always; the test clock's routes only when it is switched on. */
@Module({})
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest dynamic module is a class: @Module() decorates it and register() returns it.
export class TimeModule {
  static register(testClockEnabled: boolean): DynamicModule {
    return { module: TimeModule, controllers: testClockEnabled ? [TimeController, TestClockController] : [TimeController] };
  }
}
