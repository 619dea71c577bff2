import { Module } from '@nestjs/common';
import { AlarmsController } from './alarms.controller';
import { CheckInRequestsController } from './checkin-requests.controller';
import { OwnAlarmMessagesController } from './own-alarm-messages.controller';
import { SystemConfigController } from './system-config.controller';
import { TestToolsController } from './test-tools.controller';

/** Alarms, the emergency call settings and the testing tools, served by escalation (and shifts for deadlines). */
@Module({
  controllers: [AlarmsController, CheckInRequestsController, OwnAlarmMessagesController, SystemConfigController, TestToolsController],
})
export class EscalationModule {}
