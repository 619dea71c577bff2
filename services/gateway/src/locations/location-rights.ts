import type { AdminTeams } from '../common/access';

export const SHARED_LOCATION = 'Only the superadmin changes a location shared by the whole organisation';
export const LOCATION_OF_OTHER_TEAMS = 'This location also belongs to a team you do not monitor: only the superadmin changes it';

/**
 * What a caller may do to a location, given the teams it belongs to (those listing it in their
 * `locationIds`; none: the organisation's, shared by every team):
 * - `change`: the superadmin; an admin whose teams hold every team it belongs to; an admin of every
 *   team (a single-team deployment) also for a shared one, as nobody else's workers use it;
 * - `shared`: a shared location, for any other admin (403);
 * - `partly`: it belongs to one of the admin's teams and to another team too (403);
 * - `hidden`: it belongs only to teams the admin does not see (404, as if it did not exist, like
 *   another team's worker or alarm).
 */
export type LocationRight = 'change' | 'shared' | 'partly' | 'hidden';

/** `scope`: the admin's teams as identity answers them; undefined for the superadmin. */
export function locationRight(owners: readonly number[], scope: AdminTeams | undefined): LocationRight {
  if (!scope || scope.all) return 'change';
  if (owners.length === 0) return 'shared';
  const mine = owners.filter((t) => scope.teamIds.includes(t)).length;
  if (mine === owners.length) return 'change';
  return mine === 0 ? 'hidden' : 'partly';
}

/** The teams each location belongs to, from every team's `locationIds`. */
export function ownersByLocation(teams: readonly { id: number; locationIds: readonly number[] }[]): Map<number, number[]> {
  const owners = new Map<number, number[]>();
  for (const team of teams) for (const id of team.locationIds) owners.set(id, [...(owners.get(id) ?? []), team.id]);
  return owners;
}
