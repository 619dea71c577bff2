import { Module } from '@nestjs/common';
import { WorkersModule } from '../workers/workers.module';
import { DashboardsController } from './dashboards.controller';
import { DashboardsService } from './dashboards.service';

@Module({ imports: [WorkersModule], controllers: [DashboardsController], providers: [DashboardsService] })
export class DashboardsModule {}
