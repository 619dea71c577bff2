import { Inject, Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { emergencyContacts, users, type Role, type UserRow } from '../db/schema';

export interface NewUser {
  username: string;
  passwordHash: string;
  name: string;
  phone?: string | null;
  role: Role;
  medicalInfo?: string | null;
  /** A worker's team (required for workers). */
  teamId?: number | null;
  /** Who created the account. */
  createdBy?: number | null;
  /** Their screens', texts' and calls' language; absent: English. */
  language?: string;
  email?: string | null;
  externalId?: string | null;
}

/**
 * Serialises every write that gives a worker a phone number (a create, a profile change, an
 * import), so two of them cannot both find the number free. A lock rather than a unique index:
 * deployments may hold workers who already share a number, and those must stay editable.
 */
const PHONE_LOCK_KEY = 7_120_026;

/** Held to the end of the transaction; taken before any user or team row is locked. */
export async function lockPhones(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${PHONE_LOCK_KEY})`);
}

@Injectable()
export class UsersRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async findByUsername(username: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.username, username)).limit(1);
    return row;
  }

  /** The ids of the workers with this phone number (at most two: more than one names nobody). */
  async workersWithPhone(phone: string): Promise<number[]> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.phone, phone), eq(users.role, 'worker')))
      .limit(2);
    return rows.map((r) => r.id);
  }

  /** Whether a worker other than `exceptId` has this number (call under lockPhones). */
  async phoneTakenByWorker(tx: Tx, phone: string, exceptId?: number): Promise<boolean> {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.phone, phone), eq(users.role, 'worker'), exceptId !== undefined ? ne(users.id, exceptId) : undefined))
      .limit(1);
    return rows.length > 0;
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async anyWithRole(role: Role): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.role, role)).limit(1);
    return rows.length > 0;
  }

  async listByRoles(roles: Role[]): Promise<UserRow[]> {
    if (roles.length === 0) return [];
    return this.db.select().from(users).where(inArray(users.role, roles)).orderBy(asc(users.name), asc(users.id));
  }

  /** A page of `listByRoles`, after the cursor (the last user of the page before), and where the next starts (absent: the last page). */
  async pageByRoles(
    roles: Role[],
    after: { name: string; id: number } | undefined,
    limit: number,
  ): Promise<{ rows: UserRow[]; next?: { name: string; id: number } }> {
    if (roles.length === 0) return { rows: [] };
    const rows = await this.db
      .select()
      .from(users)
      .where(and(inArray(users.role, roles), after ? sql`(${users.name}, ${users.id}) > (${after.name}, ${after.id})` : undefined))
      .orderBy(asc(users.name), asc(users.id))
      .limit(limit + 1);
    if (rows.length <= limit) return { rows };
    const last = rows[limit - 1];
    return { rows: rows.slice(0, limit), next: { name: last.name, id: last.id } };
  }

  async findByIdForUpdate(tx: Tx, id: number): Promise<UserRow | undefined> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    return row;
  }

  /**
   * Locks every superadmin row, always in id order, so two superadmins deleting each other at
   * the same moment queue up instead of deadlocking, and the second sees the first's delete.
   */
  async lockSuperadmins(tx: Tx): Promise<number[]> {
    const rows = await tx.select({ id: users.id }).from(users).where(eq(users.role, 'superadmin')).orderBy(asc(users.id)).for('update');
    return rows.map((r) => r.id);
  }

  async updateProfile(
    tx: Tx,
    id: number,
    changes: Partial<Pick<UserRow, 'name' | 'phone' | 'medicalInfo' | 'language' | 'email' | 'externalId'>>,
  ): Promise<UserRow> {
    const [row] = await tx
      .update(users)
      .set({ ...changes, updatedAt: new Date(), version: sql`${users.version} + 1`, versionChangedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** Raises the user's version for a change to its settings or contacts; undefined if no such user. */
  async bumpVersion(tx: Tx, id: number): Promise<number | undefined> {
    const [row] = await tx
      .update(users)
      .set({ version: sql`${users.version} + 1`, versionChangedAt: sql`now()` })
      .where(eq(users.id, id))
      .returning({ version: users.version });
    return row?.version;
  }

  /**
   * Raises the version of the user owning a contact, locking that user before the contact (the
   * order account deletion takes them in). Undefined if there is no such contact.
   */
  async bumpVersionForContact(tx: Tx, contactId: number): Promise<number | undefined> {
    const [row] = await tx
      .update(users)
      .set({ version: sql`${users.version} + 1`, versionChangedAt: sql`now()` })
      .where(sql`${users.id} = (select ${emergencyContacts.userId} from ${emergencyContacts} where ${emergencyContacts.id} = ${contactId})`)
      .returning({ version: users.version });
    return row?.version;
  }

  /**
   * The fields no other service copies (the e-mail, the directory's id for the person): changed
   * without raising the version, which tells copies that something they hold changed.
   */
  async updateOwnFields(tx: Tx, id: number, changes: Partial<Pick<UserRow, 'email' | 'externalId'>>): Promise<UserRow> {
    const [row] = await tx
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** Whether an account other than `exceptId` has this directory id. */
  async externalIdTaken(tx: Tx, externalId: string, exceptId?: number): Promise<boolean> {
    const rows = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.externalId, externalId), exceptId !== undefined ? ne(users.id, exceptId) : undefined))
      .limit(1);
    return rows.length > 0;
  }

  /** Contacts, settings and PIN failures go with the row (ON DELETE CASCADE). */
  async delete(tx: Tx, id: number): Promise<void> {
    await tx.delete(users).where(eq(users.id, id));
  }

  /** Returns undefined when the username is taken (unique index), so callers answer 409. */
  async insert(tx: Tx, user: NewUser): Promise<UserRow | undefined> {
    const [row] = await tx.insert(users).values(user).onConflictDoNothing({ target: users.username }).returning();
    return row;
  }
}
