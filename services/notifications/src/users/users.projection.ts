import { Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import type { Tx } from '@lws/platform';
import { users } from '../db/schema';
import { SubscriptionsRepository } from '../push/subscriptions.repository';

/**
 * Each user's role, to know the monitors. Subjects are not ordered with each other: a creation
 * never overwrites a role an update already set, and a deleted user stays deleted.
 */
@Injectable()
export class UsersProjection {
  constructor(private readonly subscriptions: SubscriptionsRepository) {}

  async created(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    await tx
      .insert(users)
      .values({ userId: e.userId, role: e.role })
      .onConflictDoUpdate({ target: users.userId, set: { role: sql`coalesce(${users.role}, excluded.role)` } });
  }

  async updated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    if (e.role === undefined) return;
    await tx.insert(users).values({ userId: e.userId, role: e.role }).onConflictDoUpdate({ target: users.userId, set: { role: e.role } });
  }

  /** A deleted user receives nothing more: their subscriptions go too. */
  async deleted(tx: Tx, e: EventMap['identity.user.deleted.v1']): Promise<void> {
    await tx.insert(users).values({ userId: e.userId, deleted: true }).onConflictDoUpdate({ target: users.userId, set: { deleted: true } });
    await this.subscriptions.deleteForUser(tx, e.userId);
  }
}
