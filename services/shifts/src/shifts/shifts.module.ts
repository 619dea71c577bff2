import { Module } from '@nestjs/common';
import { EmergenciesModule } from '../emergencies/emergencies.module';
import { WorkersModule } from '../workers/workers.module';
import { ShiftsController } from './shifts.controller';
import { ShiftsService } from './shifts.service';

@Module({
  imports: [WorkersModule, EmergenciesModule],
  controllers: [ShiftsController],
  providers: [ShiftsService],
  exports: [ShiftsService],
})
export class ShiftsModule {}
