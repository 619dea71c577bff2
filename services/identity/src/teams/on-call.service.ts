import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import {
  CLOCK,
  DB,
  metrics,
  onCallAt,
  onCallGaps,
  onCallTimeline,
  UnitOfWork,
  type Clock,
  type Db,
  type OnCallPeople,
  type OnCallSchedule,
  type OnCallSegment,
  type Tx,
} from '@lws/platform';
import { ON_CALL_MAX_OVERRIDES, onCallScheduleSchema } from '@lws/schemas';
import { teams, users, type TeamRow } from '../db/schema';
import { checkRotaPeople, keptOverrides, ON_THE_ROTA, teamPeople } from './rota';
import { TEAM_NOT_FOUND, TeamsService } from './teams.service';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type Request<P extends keyof CommandMap> = CommandMap[P]['request'];
type Slot = NonNullable<Reply<'identity.team.on_call.v1'>['now']>;

const NO_ROTA = 'This team has no on-call rota';
/** How far back `lws_oncall_uncovered_seconds` looks for the start of a gap. */
const UNCOVERED_LOOKBACK_MS = 24 * 3600_000;

/**
 * A team's on-call rota: set by the superadmin, covered by overrides, and resolved into who is on
 * call when (@lws/platform's on-call, in the rota's time zone). Every change raises the team's
 * version and publishes the whole team, rota included, so escalation's copy follows it and is
 * reconciled like the rest of the team.
 */
@Injectable()
export class OnCallService implements OnModuleInit, OnModuleDestroy {
  private unsample?: () => void;

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly teams: TeamsService,
  ) {}

  onModuleInit(): void {
    this.unsample = metrics.onCallUncovered.sample(async (g) => {
      for (const [team, seconds] of await this.uncovered()) g.set({ service: 'identity', team }, seconds);
    });
  }

  onModuleDestroy(): void {
    this.unsample?.();
  }

  /**
   * Each team with a rota, by name, and how long it has had nobody on call (0 while someone is),
   * looking back a day at most: what `lws_oncall_uncovered_seconds` shows and its alert watches.
   */
  async uncovered(): Promise<Map<string, number>> {
    const now = this.clock();
    const since = new Date(now.getTime() - UNCOVERED_LOOKBACK_MS);
    const rows = await this.db.select().from(teams).where(isNotNull(teams.onCallSchedule));
    // Everyone's away time in one read, whatever the number of teams.
    const away = await this.awayOf(rows.flatMap((r) => [...teamPeople(r.monitors)]));
    const found = new Map<string, number>();
    for (const row of rows) {
      let seconds = 0;
      try {
        const gaps = onCallGaps(row.onCallSchedule!, since, new Date(now.getTime() + 1000), peopleOf(row, away));
        const current = gaps.find((g) => g.start <= now && g.end > now);
        if (current) seconds = Math.round((now.getTime() - current.start.getTime()) / 1000);
      } catch {
        // A rota that cannot be read was checked when saved; it shows as covered rather than break the scrape.
      }
      found.set(row.name, seconds);
    }
    return found;
  }

  async setSchedule(req: Request<'identity.team.set_on_call.v1'>): Promise<Reply<'identity.team.set_on_call.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const current = await this.locked(tx, req.teamId);
      let schedule: OnCallSchedule | null = null;
      if (req.schedule !== undefined) {
        const parsed = onCallScheduleSchema.safeParse(parseJson(req.schedule));
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new RpcError(400, issue.message, { field: ['schedule', ...issue.path].join('.') });
        }
        // The schema checked each day is 1 to 7: the Weekday the timeline reads.
        const next = { ...(parsed.data as Omit<OnCallSchedule, 'overrides'>), overrides: current.onCallSchedule?.overrides ?? [] };
        schedule = { ...next, overrides: keptOverrides(next, this.clock()) };
        checkRotaPeople(schedule, current.monitors);
      }
      const row = await this.save(tx, req.teamId, {
        onCallSchedule: schedule,
        coverRequired: req.coverRequired as TeamRow['coverRequired'],
      });
      return { team: await this.teams.changed(tx, emit, 'updated', row, req.actorId) };
    });
  }

  async addOverride(req: Request<'identity.team.add_on_call_override.v1'>): Promise<Reply<'identity.team.add_on_call_override.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const current = await this.locked(tx, req.teamId);
      const schedule = current.onCallSchedule;
      if (!schedule) throw new RpcError(400, NO_ROTA, { field: 'id' });
      if (req.layer >= schedule.layers.length) throw new RpcError(400, 'The rota has no such layer', { field: 'layer' });
      if (!teamPeople(current.monitors).has(req.userId)) throw new RpcError(400, ON_THE_ROTA, { field: 'userId' });
      const start = new Date(req.start);
      const end = new Date(req.end);
      if (!(end > start)) throw new RpcError(400, 'The end must be after the start', { field: 'end' });
      const kept = keptOverrides(schedule, this.clock());
      if (kept.length >= ON_CALL_MAX_OVERRIDES) throw new RpcError(400, 'The rota has 500 overrides already', { field: 'id' });
      const override = { id: randomUUID(), layer: req.layer, userId: req.userId, start: start.toISOString(), end: end.toISOString() };
      const row = await this.save(tx, req.teamId, { onCallSchedule: { ...schedule, overrides: [...kept, override] } });
      return { override, team: await this.teams.changed(tx, emit, 'updated', row, req.actorId) };
    });
  }

  async removeOverride(
    req: Request<'identity.team.remove_on_call_override.v1'>,
  ): Promise<Reply<'identity.team.remove_on_call_override.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const current = await this.locked(tx, req.teamId);
      const schedule = current.onCallSchedule;
      if (!schedule?.overrides.some((o) => o.id === req.overrideId)) {
        throw new RpcError(404, 'Override not found', { field: 'overrideId' });
      }
      const overrides = keptOverrides(schedule, this.clock()).filter((o) => o.id !== req.overrideId);
      const row = await this.save(tx, req.teamId, { onCallSchedule: { ...schedule, overrides } });
      return { team: await this.teams.changed(tx, emit, 'updated', row, req.actorId) };
    });
  }

  /** Who is on call at a moment (absent: now), who is next in line, and who takes over. */
  async now(req: Request<'identity.team.on_call.v1'>): Promise<Reply<'identity.team.on_call.v1'>> {
    const at = req.at ? new Date(req.at) : this.clock();
    const row = await this.read(req.teamId);
    if (!row.onCallSchedule) return { hasRota: false, at: at.toISOString() };
    const schedule = row.onCallSchedule;
    const found = onCallAt(schedule, at, await this.people(row));
    const named = await this.namer(schedule, [found.now, found.next, found.after]);
    return {
      hasRota: true,
      at: at.toISOString(),
      ...(found.now ? { now: named(found.now) } : {}),
      ...(found.next ? { next: named(found.next) } : {}),
      ...(found.after ? { after: named(found.after) } : {}),
    };
  }

  /** The resolved timeline: each layer's, the final one, and its gaps. */
  async timeline(req: Request<'identity.team.on_call_timeline.v1'>): Promise<Reply<'identity.team.on_call_timeline.v1'>> {
    const from = new Date(req.from);
    const to = new Date(req.to);
    const row = await this.read(req.teamId);
    const schedule = row.onCallSchedule;
    if (!schedule) return { hasRota: false, timeZone: '', layers: [], final: [], gaps: [] };
    let resolved: ReturnType<typeof onCallTimeline>;
    try {
      resolved = onCallTimeline(schedule, from, to, await this.people(row));
    } catch (err) {
      if (err instanceof RangeError) throw new RpcError(400, err.message, { field: 'to' });
      throw err;
    }
    const named = await this.namer(schedule, [...resolved.layers.flat(), ...resolved.final]);
    return {
      hasRota: true,
      timeZone: schedule.timeZone,
      layers: schedule.layers.map((l, i) => ({ name: l.name, slots: (resolved.layers[i] ?? []).map(named) })),
      final: resolved.final.map(named),
      gaps: resolved.gaps.map((g) => ({ start: g.start.toISOString(), end: g.end.toISOString() })),
    };
  }

  /** Whether the worker's team has someone on call over the range, and what it says to do when not. */
  async cover(req: Request<'identity.team.cover.v1'>): Promise<Reply<'identity.team.cover.v1'>> {
    const [user] = await this.db.select({ teamId: users.teamId }).from(users).where(eq(users.id, req.userId));
    if (!user?.teamId) return { required: 'off', hasRota: false, gaps: [] };
    const row = await this.read(user.teamId);
    if (!row.onCallSchedule) return { required: row.coverRequired, hasRota: false, teamId: row.id, gaps: [] };
    const gaps = onCallGaps(row.onCallSchedule, new Date(req.from), new Date(req.to), await this.people(row));
    return {
      required: row.coverRequired,
      hasRota: true,
      teamId: row.id,
      gaps: gaps.map((g) => ({ start: g.start.toISOString(), end: g.end.toISOString() })),
    };
  }

  /**
   * One admin's own stretches over a range, across the teams they monitor or deputise for that have
   * a rota: each layer's stretches that name them (themselves, an override, or standing in for
   * someone away), by start. A rota that cannot be read is passed over.
   */
  async stretchesOf(
    userId: number,
    from: Date,
    to: Date,
  ): Promise<(OnCallSegment & { teamId: number; teamName: string; layerName: string })[]> {
    const rows = await this.db
      .select()
      .from(teams)
      .where(
        and(
          isNotNull(teams.onCallSchedule),
          sql`(${teams.monitors} @> ${JSON.stringify([{ userId }])}::jsonb or ${teams.monitors} @> ${JSON.stringify([{ deputyUserId: userId }])}::jsonb)`,
        ),
      );
    const away = await this.awayOf(rows.flatMap((r) => [...teamPeople(r.monitors)]));
    const found = rows.flatMap((row) => {
      const schedule = row.onCallSchedule!;
      try {
        return onCallTimeline(schedule, from, to, peopleOf(row, away))
          .layers.flat()
          .filter((s) => s.userId === userId)
          .map((s) => ({ ...s, teamId: row.id, teamName: row.name, layerName: schedule.layers[s.layer]?.name ?? '' }));
      } catch {
        return [];
      }
    });
    return found.sort((a, b) => a.start.getTime() - b.start.getTime() || a.teamId - b.teamId);
  }

  private async read(teamId: number): Promise<TeamRow> {
    const [row] = await this.db.select().from(teams).where(eq(teams.id, teamId));
    if (!row) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    return row;
  }

  private async locked(tx: Tx, teamId: number): Promise<TeamRow> {
    const [row] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!row) throw new RpcError(404, TEAM_NOT_FOUND, { field: 'id' });
    return row;
  }

  private async save(tx: Tx, teamId: number, set: Partial<Pick<TeamRow, 'onCallSchedule' | 'coverRequired'>>): Promise<TeamRow> {
    const [row] = await tx
      .update(teams)
      .set({ ...set, version: sql`${teams.version} + 1`, updatedAt: this.clock() })
      .where(eq(teams.id, teamId))
      .returning();
    return row;
  }

  /** Away and deputies as the rota's resolution needs them, for one team. */
  private async people(row: TeamRow): Promise<OnCallPeople> {
    return peopleOf(row, await this.awayOf([...teamPeople(row.monitors)]));
  }

  /** Who of these is away until when, in one read. */
  private async awayOf(ids: number[]): Promise<Map<number, Date | undefined>> {
    const unique = [...new Set(ids)];
    const rows =
      unique.length === 0
        ? []
        : await this.db.select({ id: users.id, awayUntil: users.awayUntil }).from(users).where(inArray(users.id, unique));
    return new Map(rows.map((r) => [r.id, r.awayUntil ?? undefined]));
  }

  /** Turns segments into slots with the person's and the layer's names, reading the names once. */
  private async namer(schedule: OnCallSchedule, segments: (OnCallSegment | undefined)[]): Promise<(s: OnCallSegment) => Slot> {
    const ids = [...new Set(segments.flatMap((s) => (s ? [s.userId] : [])))];
    const rows = ids.length === 0 ? [] : await this.db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
    const names = new Map(rows.map((r) => [r.id, r.name]));
    return (s) => ({
      userId: s.userId,
      name: names.get(s.userId) ?? `#${s.userId}`,
      layer: s.layer,
      layerName: schedule.layers[s.layer]?.name ?? '',
      start: s.start.toISOString(),
      end: s.end.toISOString(),
      ...(s.via ? { via: s.via } : {}),
      ...(s.forUserId !== undefined ? { forUserId: s.forUserId } : {}),
    });
  }
}

/** A team's people as the rota's resolution reads them: who is away until when, and the team's deputy for each monitor. */
function peopleOf(row: TeamRow, away: ReadonlyMap<number, Date | undefined>): OnCallPeople {
  const deputies = new Map(row.monitors.flatMap((m) => (m.deputyUserId !== undefined ? [[m.userId, m.deputyUserId] as const] : [])));
  return { awayUntil: (id) => away.get(id), deputyOf: (id) => deputies.get(id) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RpcError(400, 'The rota is not valid JSON', { field: 'schedule' });
  }
}
