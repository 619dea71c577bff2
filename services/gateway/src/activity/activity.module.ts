import { Module } from '@nestjs/common';
import { ActivityController } from './activity.controller';

/** The activity log, served by the audit service. */
@Module({ controllers: [ActivityController] })
export class ActivityModule {}
