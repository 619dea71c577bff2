import { Module } from '@nestjs/common';
import { LocationsRepository } from '../projections/locations.repository';
import { WorkerStateRepository } from './worker-state.repository';

/** The per-worker row every feature locks and reads, and the location list it checks against. */
@Module({
  providers: [WorkerStateRepository, LocationsRepository],
  exports: [WorkerStateRepository, LocationsRepository],
})
export class WorkersModule {}
