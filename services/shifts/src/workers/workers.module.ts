import { Module } from '@nestjs/common';
import { LocationsRepository } from '../projections/locations.repository';
import { VisitsRepository } from './visits.repository';
import { WorkerStateRepository } from './worker-state.repository';

/** The per-worker row every feature locks and reads, its visit, and the location list it checks against. */
@Module({
  providers: [WorkerStateRepository, VisitsRepository, LocationsRepository],
  exports: [WorkerStateRepository, VisitsRepository, LocationsRepository],
})
export class WorkersModule {}
