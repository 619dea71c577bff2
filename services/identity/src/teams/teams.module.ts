import { Module } from '@nestjs/common';
import { LocationEvents } from './location-events';
import { OnCallService } from './on-call.service';
import { TeamsController } from './teams.controller';
import { TeamIntervals } from './team-intervals';
import { TeamsService } from './teams.service';

@Module({
  controllers: [TeamsController],
  providers: [TeamsService, OnCallService, TeamIntervals, LocationEvents],
  exports: [TeamsService, TeamIntervals],
})
export class TeamsModule {}
