import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { PositiveIntPipe } from '../common/access';
import { Roles } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { createLocationSchema, updateLocationSchema } from './locations.schema';
import { LocationsService } from './locations.service';

const locationId = () => new PositiveIntPipe('id', 'Invalid location ID');

/** Every signed-in user reads the list (the worker's location dropdown); admins and the superadmin manage it. */
@Controller('api/location-options')
export class LocationsController {
  constructor(private readonly locations: LocationsService) {}

  @Get()
  list() {
    return this.locations.list();
  }

  @Post()
  @Roles('admin', 'superadmin')
  create(@Body() body: unknown) {
    return this.locations.create(parseInput(createLocationSchema, body));
  }

  @Patch(':id')
  @Roles('admin', 'superadmin')
  update(@Param('id', locationId()) id: number, @Body() body: unknown) {
    return this.locations.update(id, parseInput(updateLocationSchema, body));
  }

  @Delete(':id')
  @Roles('admin', 'superadmin')
  remove(@Param('id', locationId()) id: number) {
    return this.locations.delete(id);
  }
}
