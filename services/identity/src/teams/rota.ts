import { RpcError } from '@lws/messaging';
import type { OnCallSchedule } from '@lws/platform';
import type { TeamMonitorEntry } from '../db/schema';

/** Overrides that ended this long ago are dropped at the next change: the rota keeps what is still of use. */
export const OVERRIDE_KEPT_MS = 30 * 24 * 3600 * 1000;
export const ON_THE_ROTA = "Everyone on the rota must be one of the team's monitors or deputies";

/** Everyone a rota names, in its layers and its overrides. */
export function rotaPeople(schedule: OnCallSchedule | null): Set<number> {
  if (!schedule) return new Set();
  return new Set([...schedule.layers.flatMap((l) => l.userIds), ...schedule.overrides.map((o) => o.userId)]);
}

/** The team's monitors and deputies: who may be on its rota (they see its alarms). */
export function teamPeople(monitors: readonly TeamMonitorEntry[]): Set<number> {
  return new Set(monitors.flatMap((m) => [m.userId, ...(m.deputyUserId !== undefined ? [m.deputyUserId] : [])]));
}

/** 400 naming the first place on the rota of someone who is not one of the team's monitors or deputies. */
export function checkRotaPeople(schedule: OnCallSchedule, monitors: readonly TeamMonitorEntry[], field = 'schedule'): void {
  const allowed = teamPeople(monitors);
  for (const [i, layer] of schedule.layers.entries()) {
    const j = layer.userIds.findIndex((id) => !allowed.has(id));
    if (j >= 0) throw new RpcError(400, ON_THE_ROTA, { field: `${field}.layers.${i}.userIds.${j}` });
  }
  const k = schedule.overrides.findIndex((o) => !allowed.has(o.userId));
  if (k >= 0) throw new RpcError(400, ON_THE_ROTA, { field: `${field}.overrides.${k}.userId` });
}

/**
 * The rota without these people (an admin deleted, or taken out of the team by the directory):
 * they leave every layer and their overrides go. A layer left empty stays, covering nobody, so the
 * superadmin sees the gap rather than a layer vanishing.
 */
export function dropFromRota(schedule: OnCallSchedule | null, ids: Iterable<number>): OnCallSchedule | null {
  if (!schedule) return schedule;
  const leaving = new Set(ids);
  return {
    ...schedule,
    layers: schedule.layers.map((l) => ({ ...l, userIds: l.userIds.filter((id) => !leaving.has(id)) })),
    overrides: schedule.overrides.filter((o) => !leaving.has(o.userId)),
  };
}

/** The rota with only the people these monitors and deputies name: whoever left the team leaves it too. */
export function keepTeamPeople(schedule: OnCallSchedule | null, monitors: readonly TeamMonitorEntry[]): OnCallSchedule | null {
  const staying = teamPeople(monitors);
  return dropFromRota(
    schedule,
    [...rotaPeople(schedule)].filter((id) => !staying.has(id)),
  );
}

/** Overrides still of use: those of layers that exist, not ended more than 30 days ago. */
export function keptOverrides(schedule: OnCallSchedule, now: Date): OnCallSchedule['overrides'] {
  const since = now.getTime() - OVERRIDE_KEPT_MS;
  return schedule.overrides.filter((o) => o.layer < schedule.layers.length && Date.parse(o.end) > since);
}
