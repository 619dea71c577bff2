import { Module } from '@nestjs/common';
import { DefaultLocationBootstrap } from './default-location.bootstrap';
import { LocationsController } from './locations.controller';
import { LocationsRepository } from './locations.repository';
import { LocationsService } from './locations.service';

@Module({
  controllers: [LocationsController],
  providers: [LocationsRepository, LocationsService, DefaultLocationBootstrap],
})
export class LocationsModule {}
