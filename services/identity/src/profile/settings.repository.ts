import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { DB, type Db, type Tx } from '@lws/platform';
import { userSettings, type UserSettingsRow } from '../db/schema';

export type SettingsFields = Pick<UserSettingsRow, 'primaryContact' | 'secondaryContact' | 'checkInInterval'>;

@Injectable()
export class SettingsRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  async findForUser(userId: number): Promise<UserSettingsRow | undefined> {
    const [row] = await this.db.select().from(userSettings).where(eq(userSettings.userId, userId)).limit(1);
    return row;
  }

  async findForUpdate(tx: Tx, userId: number): Promise<UserSettingsRow | undefined> {
    const [row] = await tx.select().from(userSettings).where(eq(userSettings.userId, userId)).for('update');
    return row;
  }

  async upsert(tx: Tx, userId: number, fields: SettingsFields): Promise<UserSettingsRow> {
    const values = { ...fields, updatedAt: new Date() };
    const [row] = await tx
      .insert(userSettings)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: userSettings.userId, set: values })
      .returning();
    return row;
  }
}
