import { Injectable } from '@nestjs/common';
import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { pgArray, rowsOf, type Tx } from '@lws/platform';
import type { AlarmScope } from '../alarms/alarm-scope';
import { alarms, checkinRequests, deadlines, workers, type CheckinRequestRow, type WorkerRow } from '../db/schema';

export const requestKey = (requestId: string) => `request:${requestId}`;

/** Still waiting for the worker's check-in: not answered, no alarm opened for it, the shift not ended. */
const open = sql`${checkinRequests.answeredAt} is null and ${checkinRequests.alarmId} is null and ${checkinRequests.closedAt} is null`;

const requestRow = rowsOf(checkinRequests) as (raw: Record<string, unknown>) => CheckinRequestRow;

/**
 * Which requests an admin sees: those of their teams' workers (the team when asked), or of a worker
 * in their scope when no team is known; undefined when every one is (the superadmin). The same
 * reading as ownsAlarm().
 */
function scopeSql(s: AlarmScope): SQL | undefined {
  const ofWorkers = s.scope ? sql`${checkinRequests.userId} = any(${pgArray(s.scope.userIds)}::int[])` : undefined;
  if (!s.teams) return ofWorkers;
  const ofTeams = sql`${checkinRequests.teamId} = any(${pgArray(s.teams.teamIds)}::int[])`;
  return sql`(${ofTeams} or (${checkinRequests.teamId} is null${ofWorkers ? sql` and ${ofWorkers}` : sql``}))`;
}

@Injectable()
export class CheckinRequestsRepository {
  /** The worker, or the team's workers, who are not deleted (on shift or not). */
  async workers(tx: Tx, by: { userId: number } | { teamId: number }): Promise<WorkerRow[]> {
    const which = 'userId' in by ? eq(workers.userId, by.userId) : eq(workers.teamId, by.teamId);
    return tx
      .select()
      .from(workers)
      .where(and(which, isNull(workers.deletedAt)))
      .orderBy(workers.name, workers.userId);
  }

  async insert(tx: Tx, rows: (typeof checkinRequests.$inferInsert)[]): Promise<void> {
    if (rows.length > 0) await tx.insert(checkinRequests).values(rows);
  }

  async batch(tx: Tx, batchId: string, scope: AlarmScope): Promise<CheckinRequestRow[]> {
    const mine = scopeSql(scope);
    return tx
      .select()
      .from(checkinRequests)
      .where(and(eq(checkinRequests.batchId, batchId), mine))
      .orderBy(checkinRequests.userId);
  }

  /** The rows of the newest `limit` batches asked since `since` that the admin sees any of. */
  async recent(tx: Tx, since: Date, limit: number, scope: AlarmScope): Promise<CheckinRequestRow[]> {
    const mine = scopeSql(scope);
    const where = and(sql`${checkinRequests.requestedAt} >= ${since.toISOString()}::timestamptz`, mine);
    const newest = tx
      .select({ batchId: checkinRequests.batchId })
      .from(checkinRequests)
      .where(where)
      .groupBy(checkinRequests.batchId)
      .orderBy(desc(sql`max(${checkinRequests.requestedAt})`))
      .limit(limit);
    return tx
      .select()
      .from(checkinRequests)
      .where(and(inArray(checkinRequests.batchId, newest), mine))
      .orderBy(desc(checkinRequests.requestedAt), checkinRequests.userId);
  }

  /** The worker's newest request still waiting. */
  async ownOpen(tx: Tx, userId: number): Promise<CheckinRequestRow | undefined> {
    const [row] = await tx
      .select()
      .from(checkinRequests)
      .where(and(eq(checkinRequests.userId, userId), open))
      .orderBy(desc(checkinRequests.requestedAt))
      .limit(1);
    return row;
  }

  /** The request a claimed timer runs, locked (the scheduler already holds its deadline row). */
  async lock(tx: Tx, id: string): Promise<CheckinRequestRow | undefined> {
    const [row] = await tx.select().from(checkinRequests).where(eq(checkinRequests.id, id)).for('update');
    return row;
  }

  async update(tx: Tx, id: string, set: Partial<CheckinRequestRow>): Promise<void> {
    await tx.update(checkinRequests).set(set).where(eq(checkinRequests.id, id));
  }

  /**
   * Closes the worker's waiting requests asked at or before `askedBy` (a check-in answers only a
   * request made before it): `answered_at` or `closed_at` (the shift ended) set to `at`. The timers
   * go first, in the order the scheduler locks (deadline, then request), so a request being fired
   * and its answer never deadlock.
   */
  async close(tx: Tx, userId: number, askedBy: Date, column: 'answered_at' | 'closed_at', at: Date): Promise<CheckinRequestRow[]> {
    const asked = sql`${checkinRequests.userId} = ${userId} and ${open} and ${checkinRequests.requestedAt} <= ${askedBy.toISOString()}::timestamptz`;
    const { rows: timers } = (await tx.execute(sql`
      delete from ${deadlines}
      where ${deadlines.jobKey} in (select 'request:' || ${checkinRequests.id} from ${checkinRequests} where ${asked})
      returning ${deadlines.jobKey}`)) as unknown as { rows: unknown[] };
    // Every waiting request has its timer until it closes: no timer, nothing waits. An ordinary
    // check-in (the consumer's hot path) costs this one indexed statement.
    if (timers.length === 0) return [];
    const { rows } = (await tx.execute(sql`
      update ${checkinRequests} set ${sql.identifier(column)} = ${at.toISOString()}::timestamptz
      where ${asked} returning *`)) as unknown as { rows: Record<string, unknown>[] };
    return rows.map(requestRow);
  }

  /**
   * The worker's alarm still escalating, which an unanswered request joins rather than opening a
   * second. Never a duress alarm: the worker's phone must see what it would without one (a missed
   * check-in alarm of its own), whoever holds it.
   */
  async activeAlarm(tx: Tx, userId: number): Promise<string | undefined> {
    const [row] = await tx
      .select({ id: alarms.id })
      .from(alarms)
      .where(
        and(eq(alarms.userId, userId), sql`${alarms.state} <> 'resolved'`, isNull(alarms.stepsStoppedReason), eq(alarms.duress, false)),
      )
      .orderBy(desc(alarms.openedAt))
      .limit(1);
    return row?.id;
  }
}
