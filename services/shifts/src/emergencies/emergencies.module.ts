import { Module } from '@nestjs/common';
import { WorkersModule } from '../workers/workers.module';
import { EmergenciesController } from './emergencies.controller';
import { EmergenciesService } from './emergencies.service';

@Module({ imports: [WorkersModule], controllers: [EmergenciesController], providers: [EmergenciesService], exports: [EmergenciesService] })
export class EmergenciesModule {}
