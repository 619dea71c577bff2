import { Injectable } from '@nestjs/common';
import { isNull, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import type { Tx } from '@lws/platform';
import { users } from '../db/schema';

/**
 * Who each user id is, from identity's events, so entries carry a username. Subjects are not
 * ordered with each other: an update may land before the creation, and neither may bring a
 * deleted user's names back.
 */
@Injectable()
export class UsersProjection {
  async created(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    await tx
      .insert(users)
      .values({ userId: e.userId, username: e.username, name: e.name })
      .onConflictDoUpdate({
        target: users.userId,
        // An update that arrived first is newer than the creation's name.
        set: { username: sql`coalesce(${users.username}, excluded.username)`, name: sql`coalesce(${users.name}, excluded.name)` },
        where: isNull(users.deletedAt),
      });
  }

  async updated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    if (e.name === undefined) return;
    await tx
      .insert(users)
      .values({ userId: e.userId, name: e.name })
      .onConflictDoUpdate({ target: users.userId, set: { name: e.name }, where: isNull(users.deletedAt) });
  }
}
