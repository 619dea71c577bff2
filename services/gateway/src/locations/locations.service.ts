import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { z } from 'zod';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';
import { adminTeams, type Actor } from '../common/access';
import { RPC } from '../common/rpc';
import { NO_TEAM, TEAM_NOT_FOUND } from '../users/users.schema';
import { LOCATION_OF_OTHER_TEAMS, locationRight, ownersByLocation, SHARED_LOCATION } from './location-rights';
import type { createLocationSchema, updateLocationSchema } from './locations.schema';

type LocationView = CommandMap['locations.location.list.v1']['reply']['locations'][number];

export const LOCATION_NOT_FOUND = 'Location not found';
export const NO_TEAM_CHOSEN = 'Choose at least one of your teams';

/** What the browser gets: the spec's location option. */
export function browserLocation(l: LocationView) {
  return { id: l.id, name: l.name, isActive: l.isActive, createdAt: l.createdAt };
}

/**
 * Locations belong to the teams that list them (`locationIds`), or, listed by none, to the
 * organisation. Everyone signed in reads them all (a worker picks one to start a shift); the
 * superadmin changes any, an admin only their own teams' (see location-rights.ts).
 */
@Injectable()
export class LocationsService {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** A manager also learns of each location whether they may change it, so the screen offers only that. */
  async list(actor: Actor) {
    const { locations } = await this.rpc.send('locations.location.list.v1', {});
    if (actor.role === 'worker') return locations.map(browserLocation);
    const scope = await adminTeams(this.rpc, actor, false);
    const owners =
      !scope || scope.all ? new Map<number, number[]>() : ownersByLocation((await this.rpc.send('identity.team.list.v1', {})).teams);
    return locations.map((l) => ({ ...browserLocation(l), canChange: locationRight(owners.get(l.id) ?? [], scope) === 'change' }));
  }

  /** The new location joins its teams in identity; should that fail it is removed, so nothing is half-made. */
  async create(actor: Actor, input: z.infer<typeof createLocationSchema>) {
    const teamIds = await this.teamsOfNewLocation(actor, input.teamIds);
    const { location } = await this.rpc.send('locations.location.create.v1', { name: input.name, isActive: input.isActive ?? true });
    if (teamIds.length > 0) {
      try {
        await this.rpc.send('identity.team.add_location.v1', { teamIds, locationId: location.id, actorId: actor.userId });
      } catch (err) {
        await this.rpc.send('locations.location.delete.v1', { locationId: location.id, actorId: actor.userId }).catch((undo: unknown) => {
          this.logger.error(
            { err: undo, locationId: location.id },
            "a location whose teams could not be set was not removed: it stays the organisation's",
          );
        });
        throw err;
      }
    }
    return browserLocation(location);
  }

  async update(actor: Actor, locationId: number, input: z.infer<typeof updateLocationSchema>) {
    await this.mayChange(actor, locationId);
    const { location } = await this.rpc.send('locations.location.update.v1', { locationId, ...input });
    return browserLocation(location);
  }

  async delete(actor: Actor, locationId: number) {
    await this.mayChange(actor, locationId);
    await this.rpc.send('locations.location.delete.v1', { locationId, actorId: actor.userId });
    return { ok: true };
  }

  /**
   * The teams a new location joins. An admin's: those named, each one of theirs (else 400 'Team
   * not found', as for a new worker), or all the teams they monitor or deputise for; an admin of no
   * team creates none. The superadmin's, and that of an admin of every team (a single-team
   * deployment, whose locations stay as they always were): those named (each must exist), or none,
   * the organisation's.
   */
  private async teamsOfNewLocation(actor: Actor, named: number[] | undefined): Promise<number[]> {
    const scope = await adminTeams(this.rpc, actor, false);
    if (!scope || scope.all) {
      if (!named || named.length === 0) return [];
      const { teams } = await this.rpc.send('identity.team.list.v1', {});
      checkTeams(
        named,
        teams.map((t) => t.id),
      );
      return named;
    }
    if (named === undefined) {
      if (scope.teamIds.length === 0) throw new BadRequestException({ message: NO_TEAM, field: 'teamIds' });
      return scope.teamIds;
    }
    if (named.length === 0) throw new BadRequestException({ message: NO_TEAM_CHOSEN, field: 'teamIds' });
    checkTeams(named, scope.teamIds);
    return named;
  }

  /** 404 for a location that does not exist or only other teams have; 403 naming why for one the admin sees but may not change. */
  private async mayChange(actor: Actor, locationId: number): Promise<void> {
    const scope = await adminTeams(this.rpc, actor, false);
    if (!scope || scope.all) return;
    const [{ locations }, { teams }] = await Promise.all([
      this.rpc.send('locations.location.list.v1', {}),
      this.rpc.send('identity.team.list.v1', {}),
    ]);
    if (!locations.some((l) => l.id === locationId)) throw new NotFoundException({ message: LOCATION_NOT_FOUND, field: 'id' });
    const right = locationRight(ownersByLocation(teams).get(locationId) ?? [], scope);
    if (right === 'hidden') throw new NotFoundException({ message: LOCATION_NOT_FOUND, field: 'id' });
    if (right === 'shared') throw new ForbiddenException({ message: SHARED_LOCATION });
    if (right === 'partly') throw new ForbiddenException({ message: LOCATION_OF_OTHER_TEAMS });
  }
}

/** Each named team among those allowed, else 400 naming the first that is not. */
function checkTeams(named: number[], allowed: number[]): void {
  const wrong = named.findIndex((id) => !allowed.includes(id));
  if (wrong >= 0) throw new BadRequestException({ message: TEAM_NOT_FOUND, field: `teamIds.${wrong}` });
}
