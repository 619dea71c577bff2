import { Module } from '@nestjs/common';
import { ReportsController } from './reports.controller';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

/** Alarm reports: read-only figures over the alarms table. */
@Module({ controllers: [ReportsController], providers: [ReportsRepository, ReportsService] })
export class ReportsModule {}
