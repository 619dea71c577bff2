import SCIMMY from 'scimmy';
import type { TeamRow } from '../db/schema';

/** A team's members as the directory sees them: its workers, and the admins who monitor it. */
export interface TeamMembers {
  workers: readonly { id: number; name: string }[];
  monitors: readonly { id: number; name: string }[];
}

/**
 * A team as the directory reads it (RFC 7643 Group). `members` absent: not asked for (a list that
 * excludes them, as Entra ID's group look-ups do), so they are not read at all.
 */
export function scimGroupOf(team: TeamRow, members?: TeamMembers): Record<string, unknown> {
  const all = members ? [...members.workers, ...members.monitors].sort((a, b) => a.id - b.id) : undefined;
  return {
    id: String(team.id),
    ...(team.externalId !== null ? { externalId: team.externalId } : {}),
    displayName: team.name,
    ...(all && all.length > 0 ? { members: all.map((m) => ({ value: String(m.id), display: m.name, type: 'User' })) } : {}),
    meta: { created: team.createdAt, lastModified: team.updatedAt },
  };
}

/** The account ids a Group's members name. A nested group, or a value that is no account id, is a SCIM 400. */
export function memberIdsOf(members: unknown): Set<number> {
  const ids = new Set<number>();
  if (!Array.isArray(members)) return ids;
  for (const member of members as { value?: unknown; type?: unknown }[]) {
    if (member?.type === 'Group') throw new SCIMMY.Types.Error(400, 'invalidValue', 'members: LWS teams do not hold other groups');
    const id = accountId(member?.value);
    if (id === undefined)
      throw new SCIMMY.Types.Error(400, 'invalidValue', `members: "${String(member?.value).slice(0, 40)}" is no User id of LWS`);
    ids.add(id);
  }
  return ids;
}

/** A resource id LWS gave out (a positive integer in decimal), or undefined. */
export function accountId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return undefined;
  const n = Number(value);
  return n <= 2147483647 ? n : undefined;
}

/** Who a membership change adds and removes, in id order. */
export function membershipChanges(before: ReadonlySet<number>, after: ReadonlySet<number>): { added: number[]; removed: number[] } {
  const byId = (a: number, b: number) => a - b;
  return {
    added: [...after].filter((id) => !before.has(id)).sort(byId),
    removed: [...before].filter((id) => !after.has(id)).sort(byId),
  };
}

export function checkedTeamName(displayName: unknown): string {
  const name = typeof displayName === 'string' ? displayName.trim().replace(/\s+/g, ' ') : '';
  if (name.length < 1 || name.length > 100) throw new SCIMMY.Types.Error(400, 'invalidValue', 'displayName must be 1 to 100 characters');
  return name;
}
