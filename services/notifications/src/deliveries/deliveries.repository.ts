import { Inject, Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { deliveries, DELIVERY_PRIORITIES } from '../db/schema';

export type Delivery = typeof deliveries.$inferSelect;
export type NewDelivery = typeof deliveries.$inferInsert;

/** How long a claimed delivery may stay 'sending' before the sender is presumed dead. */
export const CLAIM_MS = 120_000;

@Injectable()
export class DeliveriesRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** Inserts rows; a request already stored (same request id and fan-out key) is skipped. */
  async insert(tx: Tx | Db, rows: NewDelivery[]): Promise<Delivery[]> {
    if (rows.length === 0) return [];
    return tx
      .insert(deliveries)
      .values(rows)
      .onConflictDoNothing({ target: [deliveries.requestId, deliveries.fanoutKey], where: sql`${deliveries.requestId} is not null` })
      .returning();
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

  /** The deliveries made for one of escalation's requests. */
  async forRequest(tx: Tx, requestId: string): Promise<Delivery[]> {
    return tx.select().from(deliveries).where(eq(deliveries.requestId, requestId));
  }

  /**
   * Withdraws an alarm's messages still waiting for the provider (status canceled) and returns them.
   * One being sent right now is marked: if that attempt fails, it is withdrawn instead of retried
   * (finishClaim); if it went out, it stays sent.
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
   * sender (another replica) skips them.
   */
  async claimDue(now: Date, limit: number): Promise<Delivery[]> {
    return this.db.transaction(async (tx) => {
      const due: string[] = [];
      for (const priority of DELIVERY_PRIORITIES) {
        if (due.length >= limit) break;
        const rows = await tx
          .select({ id: deliveries.id })
          .from(deliveries)
          .where(and(eq(deliveries.status, 'pending'), eq(deliveries.priority, priority), lte(deliveries.nextAttemptAt, now)))
          .orderBy(asc(deliveries.nextAttemptAt))
          .limit(limit - due.length)
          .for('update', { skipLocked: true });
        due.push(...rows.map((r) => r.id));
      }
      if (due.length === 0) return [];
      const claimed = await tx
        .update(deliveries)
        .set({
          status: 'sending',
          attempts: sql`${deliveries.attempts} + 1`,
          claimedUntil: new Date(now.getTime() + CLAIM_MS),
          nextAttemptAt: null,
          updatedAt: now,
        })
        .where(inArray(deliveries.id, due))
        .returning();
      // In the order claimed, which the sender starts them in.
      const order = new Map(due.map((id, i) => [id, i]));
      return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    });
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

  /** Updates a row this sender still holds ('sending'); undefined when its claim was taken away. */
  async finishClaim(tx: Tx, id: string, changes: Partial<NewDelivery>): Promise<Delivery | undefined> {
    // A retry of a row withdrawn while it was being sent becomes its withdrawal.
    const set =
      changes.status === 'pending'
        ? {
            ...changes,
            status: sql`case when ${deliveries.withdrawnReason} is null then 'pending' else 'canceled' end`,
            nextAttemptAt: sql`case when ${deliveries.withdrawnReason} is null then ${changes.nextAttemptAt?.toISOString() ?? null}::timestamptz end`,
            errorMessage: sql`coalesce(${deliveries.withdrawnReason}, ${changes.errorMessage ?? null})`,
          }
        : changes;
    const [row] = await tx
      .update(deliveries)
      .set({ ...set, claimedUntil: null })
      .where(and(eq(deliveries.id, id), eq(deliveries.status, 'sending')))
      .returning();
    return row;
  }

  async update(tx: Tx, id: string, changes: Partial<NewDelivery>): Promise<Delivery | undefined> {
    const [row] = await tx.update(deliveries).set(changes).where(eq(deliveries.id, id)).returning();
    return row;
  }

  async lock(tx: Tx, id: string): Promise<Delivery | undefined> {
    const [row] = await tx.select().from(deliveries).where(eq(deliveries.id, id)).for('update');
    return row;
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
}
