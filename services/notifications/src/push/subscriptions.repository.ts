import { Inject, Injectable } from '@nestjs/common';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { pushSubscriptions, users } from '../db/schema';

export type PushSubscription = typeof pushSubscriptions.$inferSelect;
export type PushTarget = PushSubscription & { monitor: boolean; language: string | null };

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

  /**
   * Every subscription of these users, and with `monitors` every one of a current admin or
   * superadmin, in one read: the push targets of a batch of requests. `monitor` says which
   * belong to a current monitor; `language` is the subscriber's (null: English, or not known yet).
   */
  async forTargets(tx: Tx, userIds: readonly number[], monitors: boolean): Promise<PushTarget[]> {
    const isMonitor = and(eq(users.deleted, false), inArray(users.role, MONITOR_ROLES));
    const wanted = or(userIds.length > 0 ? inArray(pushSubscriptions.userId, [...userIds]) : undefined, monitors ? isMonitor : undefined);
    if (!wanted) return [];
    return tx
      .select({
        id: pushSubscriptions.id,
        userId: pushSubscriptions.userId,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
        createdAt: pushSubscriptions.createdAt,
        monitor: sql<boolean>`coalesce(${isMonitor}, false)`,
        language: users.language,
      })
      .from(pushSubscriptions)
      .leftJoin(users, eq(users.userId, pushSubscriptions.userId))
      .where(wanted);
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
