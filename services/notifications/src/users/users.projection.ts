import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import type { Db, Tx } from '@lws/platform';
import { users } from '../db/schema';
import { SubscriptionsRepository } from '../push/subscriptions.repository';

/**
 * Each user's role, to know the monitors; their phone and language, to answer a text in it; a
 * worker's team, which decides which organisations' webhooks hear of their shifts. Subjects are
 * not ordered with each other: a creation never overwrites a role an update already set, a phone,
 * language and team change only for a newer version of the user, and a deleted user stays deleted.
 */
@Injectable()
export class UsersProjection {
  constructor(private readonly subscriptions: SubscriptionsRepository) {}

  async created(tx: Tx, e: EventMap['identity.user.created.v1']): Promise<void> {
    await tx
      .insert(users)
      .values({
        userId: e.userId,
        role: e.role,
        phone: e.phone || null,
        language: e.language ?? null,
        teamId: e.teamId ?? null,
        version: e.version ?? null,
      })
      .onConflictDoUpdate({ target: users.userId, set: { role: sql`coalesce(${users.role}, excluded.role)`, ...newerContact() } });
  }

  async updated(tx: Tx, e: EventMap['identity.user.updated.v1']): Promise<void> {
    // With a version, the event holds the whole profile (no phone: none; no language: English; no
    // team: none); without one (from before versions), only what changed.
    const contact =
      e.version !== undefined
        ? { phone: e.phone || null, language: e.language ?? null, teamId: e.teamId ?? null, version: e.version }
        : {
            ...(e.phone !== undefined ? { phone: e.phone || null } : {}),
            ...(e.language !== undefined ? { language: e.language } : {}),
            ...(e.teamId !== undefined ? { teamId: e.teamId } : {}),
          };
    if (e.role === undefined && Object.keys(contact).length === 0) return;
    await tx
      .insert(users)
      .values({ userId: e.userId, ...(e.role !== undefined ? { role: e.role } : {}), ...contact })
      .onConflictDoUpdate({
        target: users.userId,
        set: {
          ...(e.role !== undefined ? { role: e.role } : {}),
          ...(e.version !== undefined ? newerContact() : contact),
        },
      });
  }

  /** A deleted user receives nothing more: their subscriptions go too. */
  async deleted(tx: Tx, e: EventMap['identity.user.deleted.v1']): Promise<void> {
    await tx
      .insert(users)
      .values({ userId: e.userId, deleted: true })
      .onConflictDoUpdate({ target: users.userId, set: { deleted: true } });
    await this.subscriptions.deleteForUser(tx, e.userId);
  }

  /**
   * The language of the user whose phone this is; null (English) for a number no user has, or one
   * several users share in different languages.
   */
  async languageOfPhone(db: Db | Tx, phone: string): Promise<string | null> {
    const rows = await db
      .selectDistinct({ language: users.language })
      .from(users)
      .where(and(eq(users.phone, phone), eq(users.deleted, false)))
      .limit(2);
    return rows.length === 1 ? rows[0].language : null;
  }
}

/**
 * The phone, language, team and version of the incoming row (`excluded`) when it is a newer version
 * than the kept one; between events from before versions, what the kept row does not know yet.
 */
function newerContact() {
  const newer = sql`excluded.version > coalesce(${users.version}, 0)`;
  const pick = (kept: typeof users.phone | typeof users.language | typeof users.teamId) =>
    sql`case when ${newer} then excluded.${sql.identifier(kept.name)} when ${users.version} is null and excluded.version is null then coalesce(${kept}, excluded.${sql.identifier(kept.name)}) else ${kept} end`;
  return {
    phone: pick(users.phone),
    language: pick(users.language),
    teamId: pick(users.teamId),
    version: sql`greatest(${users.version}, excluded.version)`,
  };
}
