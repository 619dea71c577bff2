import { Module } from '@nestjs/common';
import { CheckInsModule } from '../check-ins/check-ins.module';
import { EmergenciesModule } from '../emergencies/emergencies.module';
import { WorkersModule } from '../workers/workers.module';
import { VisitNotes } from './visit-notes';
import { VisitsController } from './visits.controller';
import { VisitsService } from './visits.service';

@Module({
  imports: [WorkersModule, EmergenciesModule, CheckInsModule],
  controllers: [VisitsController],
  providers: [VisitsService, VisitNotes],
})
export class VisitsModule {}
