import { Injectable } from '@nestjs/common';
import { and, isNull, lte, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import type { Tx } from '@lws/platform';
import { users } from '../db/schema';

/**
 * Who each user id is, from identity's events, so entries carry a username. Subjects are not
 * ordered with each other: an update may land before the creation, an older rename after a newer
 * one (identity's version per user decides; events from before versions carry none), and neither
 * may bring a deleted user's names back.
 */
@Injectable()
export class UsersProjection {
  async created(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    const version = e.version ?? 0;
    const newer = sql`${users.version} <= ${version}`;
    await tx
      .insert(users)
      .values({ userId: e.userId, username: e.username, name: e.name, version })
      .onConflictDoUpdate({
        target: users.userId,
        set: {
          // Usernames never change: the creation fills it in even after a newer rename landed.
          username: sql`coalesce(${users.username}, excluded.username)`,
          name: e.version
            ? sql`case when ${newer} then excluded.name else ${users.name} end`
            : // Unversioned: an update that arrived first is newer than the creation's name.
              sql`coalesce(${users.name}, excluded.name)`,
          version: sql`greatest(${users.version}, ${version})`,
        },
        where: isNull(users.deletedAt),
      });
  }

  async updated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    if (e.name === undefined) return;
    const version = e.version ?? 0;
    await tx
      .insert(users)
      .values({ userId: e.userId, name: e.name, version })
      .onConflictDoUpdate({
        target: users.userId,
        // The username is identity's for good: an update that landed first leaves it to the creation.
        set: { name: e.name, version },
        where: and(isNull(users.deletedAt), lte(users.version, version)),
      });
  }
}
