import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { users, type Role, type UserRow } from '../db/schema';

export interface NewUser {
  username: string;
  passwordHash: string;
  name: string;
  phone?: string | null;
  role: Role;
  medicalInfo?: string | null;
}

@Injectable()
export class UsersRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async findByUsername(username: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.username, username)).limit(1);
    return row;
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async anyWithRole(role: Role): Promise<boolean> {
    const rows = await this.db.select({ id: users.id }).from(users).where(eq(users.role, role)).limit(1);
    return rows.length > 0;
  }

  /** Returns undefined when the username is taken (unique index), so callers answer 409. */
  async insert(tx: Tx, user: NewUser): Promise<UserRow | undefined> {
    const [row] = await tx.insert(users).values(user).onConflictDoNothing({ target: users.username }).returning();
    return row;
  }
}
