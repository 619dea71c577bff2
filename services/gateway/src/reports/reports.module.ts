import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller';

/** Alarm reports, served by escalation. */
@Module({ controllers: [ReportsController] })
export class ReportsModule {}
