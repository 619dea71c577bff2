import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { DB, insertRows, pgArray, type Db, type Tx } from '@lws/platform';
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

  /** lockUserForWrite for many users, in one statement (in id order, as every batch takes them). */
  async lockUsersForWrite(tx: Tx, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    const ids = pgArray([...new Set(userIds)].sort((a, b) => a - b));
    await tx.execute(sql`select pg_advisory_xact_lock_shared(${USER_LOCK}::int, u) from unnest(${ids}::int[]) as u`);
  }

  async lockUserForPurge(tx: Tx, userId: number): Promise<void> {
    await tx.execute(sql`select pg_advisory_xact_lock(${USER_LOCK}::int, ${userId}::int)`);
  }

  async findUser(tx: Tx, userId: number) {
    const [row] = await tx.select().from(users).where(eq(users.userId, userId));
    return row;
  }

  async findUsers(tx: Tx, userIds: readonly number[]) {
    if (userIds.length === 0) return [];
    return tx
      .select()
      .from(users)
      .where(inArray(users.userId, [...userIds]));
  }

  /**
   * Many entries in one statement, in the order given (their ids follow it); an entry for an event
   * that already has one is skipped. The rows written, in order.
   */
  async insertMany(tx: Tx, rows: readonly NewEntry[]): Promise<ListedEntry[]> {
    if (rows.length === 0) return [];
    const json = JSON.stringify(rows.map((r) => ({ ...r, at: r.at.toISOString() })));
    const { rows: saved } = (await tx.execute(sql`
      insert into ${entries} (user_id, username, type, details, location, at, source_event_id, monitors_only)
      select (e->>'userId')::int, e->>'username', e->>'type', e->>'details', e->>'location', (e->>'at')::timestamptz,
             (e->>'sourceEventId')::uuid, (e->>'monitorsOnly')::boolean
      from jsonb_array_elements(${json}::jsonb) with ordinality as x(e, n)
      order by n
      on conflict (source_event_id) do nothing
      returning id, user_id, username, type, details, location, at`)) as unknown as {
      rows: {
        id: number | string;
        user_id: number | null;
        username: string | null;
        type: string;
        details: string;
        location: string | null;
        at: Date | string;
      }[];
    };
    return saved
      .map((r) => ({
        id: Number(r.id),
        userId: r.user_id,
        username: r.username,
        type: r.type,
        details: r.details,
        location: r.location,
        at: new Date(r.at),
      }))
      .sort((a, b) => a.id - b.id);
  }

  /** The new row, or undefined when an entry for this event already exists. */
  async insert(tx: Tx, entry: NewEntry): Promise<ListedEntry | undefined> {
    const [row] = await tx.insert(entries).values(entry).onConflictDoNothing({ target: entries.sourceEventId }).returning({
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

  /** The stages logged for each of these messages (absent: none). */
  async loggedStagesOf(tx: Tx, messageIds: readonly string[]): Promise<Map<string, Set<MessageStage>>> {
    const stages = new Map<string, Set<MessageStage>>();
    if (messageIds.length === 0) return stages;
    const rows = await tx
      .select({ messageId: loggedMessages.messageId, stage: loggedMessages.stage })
      .from(loggedMessages)
      .where(inArray(loggedMessages.messageId, [...messageIds]));
    for (const r of rows) stages.set(r.messageId, (stages.get(r.messageId) ?? new Set<MessageStage>()).add(r.stage));
    return stages;
  }

  /** markLogged for the stages of many messages in one statement; false when another transaction recorded one first. */
  async markLoggedMany(tx: Tx, marks: readonly { messageId: string; stage: MessageStage }[]): Promise<boolean> {
    if (marks.length === 0) return true;
    const inserted = await insertRows(tx, loggedMessages, marks, { onConflict: sql`do nothing`, returning: true });
    return inserted.length === marks.length;
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
