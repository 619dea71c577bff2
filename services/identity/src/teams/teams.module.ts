import { Module } from '@nestjs/common';
import { LocationEvents } from './location-events';
import { OnCallFeedService } from '../on-call-feed/on-call-feed.service';
import { OnCallService } from './on-call.service';
import { TeamsController } from './teams.controller';
import { TeamIntervals } from './team-intervals';
import { TeamsService } from './teams.service';

@Module({
  controllers: [TeamsController],
  providers: [TeamsService, OnCallService, OnCallFeedService, TeamIntervals, LocationEvents],
  exports: [TeamsService, TeamIntervals],
})
export class TeamsModule {}
