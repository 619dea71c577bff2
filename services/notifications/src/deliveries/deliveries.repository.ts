import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { INDEX_ORDER } from '@lws/messaging';
import { DB, insertRows, rowsOf, type Db, type Tx } from '@lws/platform';
import { deliveries, DELIVERY_PRIORITIES, DELIVERY_PRIORITY } from '../db/schema';

export type Delivery = typeof deliveries.$inferSelect;
/** A delivery row as a template returns it, read as the query builder reads it. */
const deliveryRow = rowsOf(deliveries);
export type NewDelivery = typeof deliveries.$inferInsert;

/** How long a claimed delivery may stay 'sending' before the sender is presumed dead. */
export const CLAIM_MS = 120_000;

/**
 * A claim while the provider's budget is short (or a 429 has paused it): at most `provider` SMS,
 * WhatsApp and call rows below emergency priority (an emergency's rows are bounded only by the
 * claim's limit), and push rows, which the provider's budget does not cover, only when `push`.
 * Looking for push rows on their own reads past the provider's backlog in the due index, so the
 * sender spaces those looks out.
 */
export interface ProviderLane {
  provider: number;
  push: boolean;
}

/**
 * The sender's result for a row it claimed. A field left undefined keeps the row's value.
 * 'pending' is a retry at nextAttemptAt; `unsent` means no attempt was made (the sender stopped
 * while the row waited for the provider's budget), so it is not counted.
 */
export interface ClaimResult {
  id: string;
  status: string;
  nextAttemptAt?: Date | null;
  providerSid?: string | null;
  errorCode?: number | null;
  errorMessage?: string | null;
  updatedAt: Date;
  unsent?: boolean;
}

@Injectable()
export class DeliveriesRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** Inserts rows; a request already stored (same request id and fan-out key) is skipped. */
  async insert(tx: Tx | Db, rows: NewDelivery[]): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    return insertRows(tx, deliveries, rows, {
      onConflict: sql`(request_id, fanout_key) where request_id is not null do nothing`,
      returning: true,
    });
  }

  /** The deliveries' statuses (and last error) of those of the request ids this service holds. */
  async requestStatuses(requestIds: string[]): Promise<{ requestId: string; status: string; errorMessage: string | null }[]> {
    if (requestIds.length === 0) return [];
    const rows = await this.db
      .select({ requestId: deliveries.requestId, status: deliveries.status, errorMessage: deliveries.errorMessage })
      .from(deliveries)
      .where(inArray(deliveries.requestId, requestIds));
    return rows.filter((r): r is { requestId: string; status: string; errorMessage: string | null } => r.requestId !== null);
  }

  /**
   * Withdraws an alarm's messages still waiting for the provider (status canceled) and returns them.
   * One being sent right now is marked: if that attempt fails, it is withdrawn instead of retried
   * (finishClaims); if it went out, it stays sent.
   */
  async withdrawPending(tx: Tx, alarmId: string, reason: string, now: Date): Promise<Delivery[]> {
    await tx
      .update(deliveries)
      .set({ withdrawnReason: reason })
      .where(and(eq(deliveries.alarmId, alarmId), eq(deliveries.status, 'sending')));
    return tx
      .update(deliveries)
      .set({ status: 'canceled', nextAttemptAt: null, errorMessage: reason, updatedAt: now })
      .where(and(eq(deliveries.alarmId, alarmId), eq(deliveries.status, 'pending')))
      .returning();
  }

  /**
   * Takes due pending rows for this sender, most urgent first (DELIVERY_PRIORITIES), oldest first
   * within each: one index range scan per priority, none once the claim is full. A concurrent
   * sender (another replica) skips them. With a `lane`, provider and push rows below emergency
   * priority are taken as it allows (a scan each).
   */
  async claimDue(now: Date, limit: number, lane?: ProviderLane): Promise<Delivery[]> {
    // Which ranges of the due index are read, in claim order: every priority, and below emergency
    // with a lane, its provider rows (bounded by the lane's room) and its push rows (when asked).
    const parts: { priority: number; channel: 'any' | 'provider' | 'push' }[] = [];
    for (const priority of DELIVERY_PRIORITIES) {
      if (!lane || priority === DELIVERY_PRIORITY.emergency) parts.push({ priority, channel: 'any' });
      else parts.push({ priority, channel: 'provider' }, ...(lane.push ? [{ priority, channel: 'push' as const }] : []));
    }
    const at = sql`${now.toISOString()}::timestamptz`;
    const count = (names: string[]) =>
      names.length === 0
        ? sql`0`
        : sql.join(
            names.map((n) => sql`(select count(*) from ${sql.identifier(n)})`),
            sql` + `,
          );
    const ranges = parts.map((p, i) => {
      const before = parts.slice(0, i).map((_, j) => `c${j}`);
      const room = sql`${limit} - (${count(before)})`;
      const max =
        p.channel === 'provider'
          ? sql`greatest(0, least(${lane?.provider ?? 0} - (${count(before.filter((_, j) => parts[j].channel === 'provider'))}), ${room}))`
          : sql`greatest(0, ${room})`;
      const channel = p.channel === 'any' ? sql`` : p.channel === 'push' ? sql` and channel = 'push'` : sql` and channel <> 'push'`;
      return sql`${sql.identifier(`c${i}`)} as (
        select id, next_attempt_at, ${i} as part from ${deliveries}
        where status = 'pending' and priority = ${p.priority} and next_attempt_at <= ${at}${channel}
        order by next_attempt_at limit ${max} for update skip locked)`;
    });
    const claimed = sql.join(
      parts.map((_, i) => sql`select * from ${sql.identifier(`c${i}`)}`),
      sql` union all `,
    );
    return this.db.transaction(async (tx) => {
      // The due index in order, whatever the statistics say: a flood writes deliveries faster than
      // autovacuum analyses them, as it does the outbox (INDEX_ORDER).
      await tx.execute(INDEX_ORDER);
      // One statement: every range read, most urgent first, each taking the room the ones before
      // left, and the rows claimed (a claim is on the emergency's path, where each round trip counts).
      const { rows } = (await tx.execute(sql`
        with ${sql.join(ranges, sql`, `)}, claimed as (${claimed})
        update ${deliveries} as d set status = 'sending', attempts = d.attempts + 1,
          claimed_until = ${new Date(now.getTime() + CLAIM_MS).toISOString()}::timestamptz, next_attempt_at = null, updated_at = ${at}
        from claimed c where d.id = c.id
        returning d.*, c.part as claim_part, c.next_attempt_at as claim_due`)) as unknown as { rows: Record<string, unknown>[] };
      // In the order claimed, which the sender starts them in.
      const order = (r: Record<string, unknown>) => [Number(r.claim_part), new Date(r.claim_due as string).getTime()];
      return rows
        .map((r) => ({ r, k: order(r) }))
        .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1])
        .map(({ r }) => deliveryRow(r));
    });
  }

  /** Due pending rows by priority: the sender's queue (one index range per priority). */
  async dueByPriority(now: Date): Promise<Map<number, number>> {
    const rows = await this.db
      .select({ priority: deliveries.priority, n: sql<number>`count(*)::int` })
      .from(deliveries)
      .where(and(eq(deliveries.status, 'pending'), lte(deliveries.nextAttemptAt, now)))
      .groupBy(deliveries.priority);
    return new Map(rows.map((r) => [r.priority, Number(r.n)]));
  }

  /** Rows a sender claimed and never finished: it died mid-send. */
  async lapsedClaims(tx: Tx, now: Date, limit: number): Promise<Delivery[]> {
    return tx
      .select()
      .from(deliveries)
      .where(and(eq(deliveries.status, 'sending'), lt(deliveries.claimedUntil, now)))
      .limit(limit)
      .for('update', { skipLocked: true });
  }

  /**
   * Records the results of rows this sender holds, in one statement: each is written only if it is
   * still 'sending', and a retry of a row withdrawn while it was being sent becomes its withdrawal.
   * Returns the rows written; one missing had its claim taken away.
   */
  async finishClaims(tx: Tx, results: readonly ClaimResult[]): Promise<Delivery[]> {
    if (results.length === 0) return [];
    const spec = results.map((r) => ({
      r_id: r.id,
      r_status: r.status,
      r_next: r.nextAttemptAt?.toISOString() ?? null,
      r_sid: r.providerSid ?? null,
      r_keep_sid: r.providerSid === undefined,
      r_code: r.errorCode ?? null,
      r_keep_code: r.errorCode === undefined,
      r_message: r.errorMessage ?? null,
      r_keep_message: r.errorMessage === undefined,
      r_updated: r.updatedAt.toISOString(),
      r_unsent: r.unsent === true,
    }));
    const given = sql`jsonb_to_recordset(${JSON.stringify(spec)}::jsonb) as r(r_id uuid, r_status text, r_next timestamptz, r_sid text, r_keep_sid boolean,
      r_code integer, r_keep_code boolean, r_message text, r_keep_message boolean, r_updated timestamptz, r_unsent boolean)`;
    const message = sql`case when r.r_keep_message then ${deliveries.errorMessage} else r.r_message end`;
    return tx
      .update(deliveries)
      .set({
        status: sql`case when r.r_status = 'pending' and ${deliveries.withdrawnReason} is not null then 'canceled' else r.r_status end`,
        nextAttemptAt: sql`case when r.r_status = 'pending' and ${deliveries.withdrawnReason} is null then r.r_next end`,
        providerSid: sql`case when r.r_keep_sid then ${deliveries.providerSid} else r.r_sid end`,
        errorCode: sql`case when r.r_keep_code then ${deliveries.errorCode} else r.r_code end`,
        errorMessage: sql`case when r.r_status = 'pending' then coalesce(${deliveries.withdrawnReason}, ${message}) else ${message} end`,
        attempts: sql`greatest(0, ${deliveries.attempts} - case when r.r_unsent then 1 else 0 end)`,
        claimedUntil: null,
        updatedAt: sql`r.r_updated`,
      })
      .from(given)
      .where(and(sql`${deliveries.id} = r.r_id`, eq(deliveries.status, 'sending')))
      .returning();
  }

  async update(tx: Tx, id: string, changes: Partial<NewDelivery>): Promise<Delivery | undefined> {
    const [row] = await tx.update(deliveries).set(changes).where(eq(deliveries.id, id)).returning();
    return row;
  }

  async lock(tx: Tx, id: string): Promise<Delivery | undefined> {
    const [row] = await tx.select().from(deliveries).where(eq(deliveries.id, id)).for('update');
    return row;
  }

  /** Locks rows in the order of their ids (two replicas locking overlapping sets never deadlock). */
  async lockMany(tx: Tx, ids: readonly string[]): Promise<Delivery[]> {
    if (ids.length === 0) return [];
    return tx
      .select()
      .from(deliveries)
      .where(inArray(deliveries.id, [...ids]))
      .orderBy(asc(deliveries.id))
      .for('update');
  }

  /** Writes the status (and error) that callbacks brought to rows the caller holds, in one statement. */
  async setStatuses(tx: Tx, rows: readonly Pick<Delivery, 'id' | 'status' | 'errorCode' | 'errorMessage' | 'updatedAt'>[]): Promise<void> {
    if (rows.length === 0) return;
    const spec = rows.map((r) => ({
      r_id: r.id,
      r_status: r.status,
      r_code: r.errorCode,
      r_message: r.errorMessage,
      r_updated: r.updatedAt.toISOString(),
    }));
    await tx.execute(sql`
      update ${deliveries} as d set status = r.r_status, error_code = r.r_code, error_message = r.r_message, updated_at = r.r_updated
      from jsonb_to_recordset(${JSON.stringify(spec)}::jsonb) as r(r_id uuid, r_status text, r_code integer, r_message text, r_updated timestamptz)
      where d.id = r.r_id`);
  }

  async find(id: string): Promise<Delivery | undefined> {
    const [row] = await this.db.select().from(deliveries).where(eq(deliveries.id, id));
    return row;
  }

  /** Sets the call's outcome once; undefined when it was already set. */
  async settleCall(tx: Tx, id: string, outcome: string, status: string, now: Date): Promise<Delivery | undefined> {
    const [row] = await tx
      .update(deliveries)
      .set({ outcome, status, updatedAt: now })
      .where(and(eq(deliveries.id, id), isNull(deliveries.outcome)))
      .returning();
    return row;
  }

  /** Calls placed but not ended, last touched before `before`. */
  async openCallsBefore(before: Date, limit: number): Promise<Delivery[]> {
    return this.db
      .select()
      .from(deliveries)
      .where(
        and(
          eq(deliveries.channel, 'voice'),
          isNull(deliveries.outcome),
          sql`${deliveries.providerSid} is not null`,
          lt(deliveries.updatedAt, before),
        ),
      )
      .limit(limit);
  }

  async list(limit: number, userId?: number): Promise<Delivery[]> {
    return this.db
      .select()
      .from(deliveries)
      .where(userId !== undefined ? eq(deliveries.userId, userId) : undefined)
      .orderBy(desc(deliveries.createdAt), desc(deliveries.id))
      .limit(limit);
  }

  /** The deliveries made for any of these requests (a batch of escalation's requests). */
  async forRequests(tx: Tx, requestIds: readonly string[]): Promise<Delivery[]> {
    if (requestIds.length === 0) return [];
    return tx
      .select()
      .from(deliveries)
      .where(inArray(deliveries.requestId, [...requestIds]));
  }
}
