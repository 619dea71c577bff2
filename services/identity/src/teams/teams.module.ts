import { Module } from '@nestjs/common';
import { LocationEvents } from './location-events';
import { TeamsController } from './teams.controller';
import { TeamIntervals } from './team-intervals';
import { TeamsService } from './teams.service';

@Module({
  controllers: [TeamsController],
  providers: [TeamsService, TeamIntervals, LocationEvents],
  exports: [TeamsService, TeamIntervals],
})
export class TeamsModule {}
