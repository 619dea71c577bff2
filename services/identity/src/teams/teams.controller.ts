import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { OnCallFeedService } from '../on-call-feed/on-call-feed.service';
import { OnCallService } from './on-call.service';
import { TeamsService } from './teams.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class TeamsController {
  constructor(
    private readonly teams: TeamsService,
    private readonly onCall: OnCallService,
    private readonly feeds: OnCallFeedService,
  ) {}

  @Command('identity.team.list.v1')
  list(@Payload() req: Req<'identity.team.list.v1'>) {
    return this.teams.list(req);
  }

  @Command('identity.team.get.v1')
  get(@Payload() req: Req<'identity.team.get.v1'>) {
    return this.teams.get(req);
  }

  @Command('identity.team.create.v1')
  create(@Payload() req: Req<'identity.team.create.v1'>) {
    return this.teams.create(req);
  }

  @Command('identity.team.update.v1')
  update(@Payload() req: Req<'identity.team.update.v1'>) {
    return this.teams.update(req);
  }

  @Command('identity.team.delete.v1')
  delete(@Payload() req: Req<'identity.team.delete.v1'>) {
    return this.teams.delete(req);
  }

  @Command('identity.team.members.v1')
  members(@Payload() req: Req<'identity.team.members.v1'>) {
    return this.teams.members(req);
  }

  @Command('identity.user.set_away.v1')
  setAway(@Payload() req: Req<'identity.user.set_away.v1'>) {
    return this.teams.setAway(req);
  }

  @Command('identity.team.scope.v1')
  scope(@Payload() req: Req<'identity.team.scope.v1'>) {
    return this.teams.scope(req.adminId, req.members !== false);
  }

  @Command('identity.team.add_location.v1')
  addLocation(@Payload() req: Req<'identity.team.add_location.v1'>) {
    return this.teams.addLocation(req);
  }

  @Command('identity.user.set_team.v1')
  setUserTeam(@Payload() req: Req<'identity.user.set_team.v1'>) {
    return this.teams.setUserTeam(req);
  }

  @Command('identity.team.set_on_call.v1')
  setOnCall(@Payload() req: Req<'identity.team.set_on_call.v1'>) {
    return this.onCall.setSchedule(req);
  }

  @Command('identity.team.add_on_call_override.v1')
  addOnCallOverride(@Payload() req: Req<'identity.team.add_on_call_override.v1'>) {
    return this.onCall.addOverride(req);
  }

  @Command('identity.team.remove_on_call_override.v1')
  removeOnCallOverride(@Payload() req: Req<'identity.team.remove_on_call_override.v1'>) {
    return this.onCall.removeOverride(req);
  }

  @Command('identity.team.on_call.v1')
  onCallNow(@Payload() req: Req<'identity.team.on_call.v1'>) {
    return this.onCall.now(req);
  }

  @Command('identity.team.on_call_timeline.v1')
  onCallTimeline(@Payload() req: Req<'identity.team.on_call_timeline.v1'>) {
    return this.onCall.timeline(req);
  }

  @Command('identity.team.cover.v1')
  cover(@Payload() req: Req<'identity.team.cover.v1'>) {
    return this.onCall.cover(req);
  }

  @Command('identity.on_call.mine.v1')
  myOnCall(@Payload() req: Req<'identity.on_call.mine.v1'>) {
    return this.feeds.mine(req);
  }

  @Command('identity.on_call.feed_create.v1')
  createOnCallFeed(@Payload() req: Req<'identity.on_call.feed_create.v1'>) {
    return this.feeds.create(req);
  }

  @Command('identity.on_call.feed_revoke.v1')
  revokeOnCallFeed(@Payload() req: Req<'identity.on_call.feed_revoke.v1'>) {
    return this.feeds.revoke(req);
  }

  @Command('identity.on_call.feed.v1')
  onCallFeed(@Payload() req: Req<'identity.on_call.feed.v1'>) {
    return this.feeds.calendar(req);
  }
}
