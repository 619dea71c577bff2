import { Module } from '@nestjs/common';
import { EmergenciesModule } from '../emergencies/emergencies.module';
import { WorkersModule } from '../workers/workers.module';
import { CheckInsController } from './check-ins.controller';
import { CheckInsService } from './check-ins.service';
import { PositionsRetention } from './positions-retention';

@Module({
  imports: [WorkersModule, EmergenciesModule],
  controllers: [CheckInsController],
  providers: [CheckInsService, PositionsRetention],
  exports: [CheckInsService],
})
export class CheckInsModule {}
