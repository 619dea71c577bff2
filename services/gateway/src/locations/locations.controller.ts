import { Body, Controller, Delete, Get, Param, Patch, Post, Req } from '@nestjs/common';
import { actorOf, PositiveIntPipe } from '../common/access';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { createLocationSchema, updateLocationSchema } from './locations.schema';
import { LocationsService } from './locations.service';

const locationId = () => new PositiveIntPipe('id', 'Invalid location ID');

/**
 * Every signed-in user reads the list (the worker's location dropdown); the superadmin manages every
 * location, an admin their own teams' (docs/api-locations.md).
 */
@Controller('api/location-options')
export class LocationsController {
  constructor(private readonly locations: LocationsService) {}

  @Get()
  list(@Req() req: AuthedRequest) {
    return this.locations.list(actorOf(req));
  }

  @Post()
  @Roles('admin', 'superadmin')
  create(@Body() body: unknown, @Req() req: AuthedRequest) {
    return this.locations.create(actorOf(req), parseInput(createLocationSchema, body));
  }

  @Patch(':id')
  @Roles('admin', 'superadmin')
  update(@Param('id', locationId()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    return this.locations.update(actorOf(req), id, parseInput(updateLocationSchema, body));
  }

  @Delete(':id')
  @Roles('admin', 'superadmin')
  remove(@Param('id', locationId()) id: number, @Req() req: AuthedRequest) {
    return this.locations.delete(actorOf(req), id);
  }
}
