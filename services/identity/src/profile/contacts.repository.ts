import { Inject, Injectable } from '@nestjs/common';
import { asc, eq, inArray } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { emergencyContacts, users, type EmergencyContactRow, type Role } from '../db/schema';

export type ContactFields = Pick<EmergencyContactRow, 'name' | 'phone' | 'relation'>;

@Injectable()
export class ContactsRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  listForUser(userId: number): Promise<EmergencyContactRow[]> {
    return this.db.select().from(emergencyContacts).where(eq(emergencyContacts.userId, userId)).orderBy(asc(emergencyContacts.id));
  }

  listForUsers(userIds: number[]): Promise<EmergencyContactRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db.select().from(emergencyContacts).where(inArray(emergencyContacts.userId, userIds)).orderBy(asc(emergencyContacts.id));
  }

  async findWithOwnerRole(id: number): Promise<{ contact: EmergencyContactRow; ownerRole: Role } | undefined> {
    const [row] = await this.db
      .select({ contact: emergencyContacts, ownerRole: users.role })
      .from(emergencyContacts)
      .innerJoin(users, eq(users.id, emergencyContacts.userId))
      .where(eq(emergencyContacts.id, id))
      .limit(1);
    return row;
  }

  async findForUpdate(tx: Tx, id: number): Promise<EmergencyContactRow | undefined> {
    const [row] = await tx.select().from(emergencyContacts).where(eq(emergencyContacts.id, id)).for('update');
    return row;
  }

  async insert(tx: Tx, userId: number, fields: ContactFields): Promise<EmergencyContactRow> {
    const [row] = await tx
      .insert(emergencyContacts)
      .values({ userId, ...fields })
      .returning();
    return row;
  }

  async update(tx: Tx, id: number, changes: Partial<ContactFields>): Promise<EmergencyContactRow> {
    const [row] = await tx
      .update(emergencyContacts)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(emergencyContacts.id, id))
      .returning();
    return row;
  }

  async delete(tx: Tx, id: number): Promise<void> {
    await tx.delete(emergencyContacts).where(eq(emergencyContacts.id, id));
  }
}
