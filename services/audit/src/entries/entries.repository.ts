import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, sql } from 'drizzle-orm';
import { DB, pgArray, type Db, type Tx } from '@lws/platform';
import { entries, loggedMessages, users } from '../db/schema';
import type { Position } from './cursor';
import type { MessageStage } from './describe';
import { WORKER_VISIBLE_TYPES } from './entry-types';

/** The namespace of audit's per-user advisory locks (any constant; the second key is the user id). */
const USER_LOCK = 0x61756474;

export interface NewEntry {
  userId: number | null;
  username: string | null;
  type: string;
  details: string;
  location: string | null;
  at: Date;
  sourceEventId: string | null;
  monitorsOnly: boolean;
}

export interface ListedEntry {
  id: number;
  userId: number | null;
  username: string | null;
  type: string;
  details: string;
  location: string | null;
  at: Date;
}

@Injectable()
export class EntriesRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /**
   * Writers of a user's entries share this lock and the purge takes it alone, so an entry
   * written while the user is being deleted either commits before the purge (and is purged) or
   * sees the deletion marker (and is not written).
   */
  async lockUserForWrite(tx: Tx, userId: number): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${USER_LOCK}::int, ${userId}::int)`);
  }

  async lockUserForPurge(tx: Tx, userId: number): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${USER_LOCK}::int, ${userId}::int)`);
  }

  async findUser(tx: Tx, userId: number) {
    const [row] = await tx.select().from(users).where(eq(users.userId, userId));
    return row;
  }

  /** The new row, or undefined when an entry for this event already exists. */
  async insert(tx: Tx, entry: NewEntry): Promise<ListedEntry | undefined> {
    const [row] = await tx
      .insert(entries)
      .values(entry)
      .onConflictDoNothing({ target: entries.sourceEventId })
      .returning({
        id: entries.id,
        userId: entries.userId,
        username: entries.username,
        type: entries.type,
        details: entries.details,
        location: entries.location,
        at: entries.at,
      });
    return row;
  }

  /** Keeps the user id as a deletion marker and forgets the names. */
  async markDeleted(tx: Tx, userId: number, deletedAt: Date): Promise<void> {
    await tx
      .insert(users)
      .values({ userId, deletedAt })
      .onConflictDoUpdate({ target: users.userId, set: { username: null, name: null, deletedAt } });
  }

  /** The only delete of the activity log: everything about one user, when identity deletes them. */
  async purgeUser(tx: Tx, userId: number): Promise<number> {
    const deleted = await tx.delete(entries).where(eq(entries.userId, userId)).returning({ id: entries.id });
    return deleted.length;
  }

  async loggedStages(tx: Tx, messageId: string): Promise<Set<MessageStage>> {
    const rows = await tx.select({ stage: loggedMessages.stage }).from(loggedMessages).where(eq(loggedMessages.messageId, messageId));
    return new Set(rows.map((r) => r.stage));
  }

  /** False when another transaction recorded one of these stages first. */
  async markLogged(tx: Tx, messageId: string, stages: MessageStage[]): Promise<boolean> {
    const inserted = await tx
      .insert(loggedMessages)
      .values(stages.map((stage) => ({ messageId, stage })))
      .onConflictDoNothing()
      .returning({ stage: loggedMessages.stage });
    return inserted.length === stages.length;
  }

  /**
   * One page, newest first: a keyset read on (at, id), or on (user_id, at, id) when filtered; of
   * one user, or (`userIds`, an admin's scope) of those users only. `workerView`: only what a
   * worker may read of their own log (WORKER_VISIBLE_TYPES, nothing for monitors only). The
   * username is the one stored with the entry, else what audit has learnt since.
   */
  async page(limit: number, userId?: number, after?: Position, userIds?: readonly number[], workerView = false): Promise<ListedEntry[]> {
    return this.db
      .select({
        id: entries.id,
        userId: entries.userId,
        username: sql<string | null>`coalesce(${entries.username}, ${users.username})`,
        type: entries.type,
        details: entries.details,
        location: entries.location,
        at: entries.at,
      })
      .from(entries)
      .leftJoin(users, eq(users.userId, entries.userId))
      .where(
        and(
          userId !== undefined ? eq(entries.userId, userId) : undefined,
          userIds ? sql`${entries.userId} = any(${pgArray(userIds)}::int[])` : undefined,
          after ? sql`(${entries.at}, ${entries.id}) < (${after.at.toISOString()}::timestamptz, ${after.id})` : undefined,
          workerView ? sql`not ${entries.monitorsOnly} and ${entries.type} = any(${pgArray(WORKER_VISIBLE_TYPES)}::text[])` : undefined,
        ),
      )
      .orderBy(desc(entries.at), desc(entries.id))
      .limit(limit);
  }
}
