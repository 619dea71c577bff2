import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, gt, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { CommandMap, WorkerStateView } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, pgArray, type Clock, type Db } from '@lws/platform';
import { ADMIN_DUE_SOON_MS, DEFAULT_CHECK_IN_INTERVAL_MINUTES } from '@lws/rules';
import { workerState, type WorkerStateRow } from '../db/schema';
import { WorkerStateRepository } from '../workers/worker-state.repository';
import { unknownWorkerView, workerView } from '../workers/worker-view';
import { decodeCursor, encodeCursor, type Position, type WorkerList } from './cursor';

type List = CommandMap['shifts.worker.list.v1'];
type Dashboard = CommandMap['shifts.dashboard.get.v1'];
/** An admin's workers; absent: every worker. */
type Scope = NonNullable<List['request']['scope']>;

export const MAX_STATE_IDS = 10_000;

/**
 * The monitors' lists. Each page is one keyset read on an index of worker_state (see the
 * schema), so a page costs the same with ten workers on shift or a hundred thousand.
 */
@Injectable()
export class DashboardsService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly workers: WorkerStateRepository,
  ) {}

  async list(req: List['request']): Promise<List['reply']> {
    let after: Position | undefined;
    if (req.cursor !== undefined) {
      after = decodeCursor(req.list, req.cursor);
      if (!after) throw new RpcError(400, 'Invalid cursor', { field: 'cursor' });
    }
    const now = this.clock();
    const page = await this.page(req.list, now, req.limit, req.scope, after);
    return { ...page, now: now.toISOString() };
  }

  /** The first page of each list, all computed at the same instant. */
  async dashboard(req: Dashboard['request']): Promise<Dashboard['reply']> {
    const now = this.clock();
    const [active, due, missed] = await Promise.all(
      (['active', 'due', 'missed'] as const).map((list) => this.page(list, now, req.limit, req.scope)),
    );
    return { active: active.workers, due: due.workers, missed: missed.workers, now: now.toISOString() };
  }

  /** One state per id, in the order asked; a user shifts has not heard of reads as off shift. */
  async states(userIds: number[]): Promise<WorkerStateView[]> {
    if (userIds.length > MAX_STATE_IDS) throw new RpcError(400, `At most ${MAX_STATE_IDS} user ids per call`, { field: 'userIds' });
    const rows = new Map((await this.workers.findMany([...new Set(userIds)])).map((r) => [r.userId, r]));
    return userIds.map((id) => {
      const row = rows.get(id);
      return row ? workerView(row) : unknownWorkerView(id, DEFAULT_CHECK_IN_INTERVAL_MINUTES);
    });
  }

  private async page(list: WorkerList, now: Date, limit: number, scope: Scope | undefined, after?: Position) {
    if (scope?.userIds.length === 0) return { workers: [] };
    const rows: WorkerStateRow[] = await this.db
      .select()
      .from(workerState)
      .where(and(...this.filter(list, now, after), ...(scope ? [sql`${workerState.userId} = any(${pgArray(scope.userIds)}::int[])`] : [])))
      .orderBy(...(list === 'active' ? [asc(workerState.userId)] : [asc(workerState.nextCheckInAt), asc(workerState.userId)]))
      .limit(limit + 1);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const last = shown[shown.length - 1];
    return {
      workers: shown.map(workerView),
      ...(more && last
        ? { nextCursor: encodeCursor(list, { userId: last.userId, ...(list === 'active' ? {} : { nextCheckInAt: last.nextCheckInAt! }) }) }
        : {}),
    };
  }

  private filter(list: WorkerList, now: Date, after?: Position): SQL[] {
    const onShift = eq(workerState.onShift, true);
    if (list === 'active') return [onShift, ...(after ? [gt(workerState.userId, after.userId)] : [])];
    const keyset = after
      ? [sql`(${workerState.nextCheckInAt}, ${workerState.userId}) > (${after.nextCheckInAt!.toISOString()}::timestamptz, ${after.userId})`]
      : [];
    if (list === 'missed') return [onShift, lte(workerState.nextCheckInAt, now), ...keyset];
    // Admin rule (spec section 4): due soon is less than 15 minutes away and not yet passed.
    const soon = new Date(now.getTime() + ADMIN_DUE_SOON_MS);
    return [onShift, gt(workerState.nextCheckInAt, now), lt(workerState.nextCheckInAt, soon), ...keyset];
  }
}
