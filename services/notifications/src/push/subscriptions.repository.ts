import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { pushSubscriptions, users } from '../db/schema';

export type PushSubscription = typeof pushSubscriptions.$inferSelect;

/** Who receives a push to 'monitors'. */
export const MONITOR_ROLES = ['admin', 'superadmin'];

@Injectable()
export class SubscriptionsRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** One row per endpoint: a browser subscribing again (or for another user) replaces its keys and owner. */
  async upsert(row: PushSubscription): Promise<string> {
    const [saved] = await this.db
      .insert(pushSubscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { userId: row.userId, p256dh: row.p256dh, auth: row.auth },
      })
      .returning({ id: pushSubscriptions.id });
    return saved.id;
  }

  async forUser(tx: Tx, userId: number): Promise<PushSubscription[]> {
    return tx.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  }

  /** Every subscription of these users (a team's monitors). */
  async forUsers(tx: Tx, userIds: number[]): Promise<PushSubscription[]> {
    return tx.select().from(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));
  }

  /** Every subscription of a current admin or superadmin. */
  async forMonitors(tx: Tx): Promise<PushSubscription[]> {
    return tx
      .select({
        id: pushSubscriptions.id,
        userId: pushSubscriptions.userId,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        createdAt: pushSubscriptions.createdAt,
      })
      .from(pushSubscriptions)
      .innerJoin(users, eq(users.userId, pushSubscriptions.userId))
      .where(and(eq(users.deleted, false), inArray(users.role, MONITOR_ROLES)));
  }

  async find(id: string): Promise<PushSubscription | undefined> {
    const [row] = await this.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  }

  async deleteForUser(tx: Tx, userId: number): Promise<void> {
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
  }
}
