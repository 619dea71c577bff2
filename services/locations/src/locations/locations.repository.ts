import { Inject, Injectable } from '@nestjs/common';
import { asc, eq, sql } from 'drizzle-orm';
import { DB, isUniqueViolation, type Db, type Tx } from '@lws/platform';
import { LOCATION_NAME_UNIQUE, locationOptions, seedSteps, type LocationRow } from '../db/schema';

export type LocationChanges = Partial<Pick<LocationRow, 'name' | 'isActive'>>;

@Injectable()
export class LocationsRepository {
  constructor(@Inject(DB) private readonly db: Db) {}

  /** Ordered as people read a list: by name, case-insensitively (the unique index serves it). */
  list(activeOnly: boolean): Promise<LocationRow[]> {
    const query = this.db.select().from(locationOptions);
    return (activeOnly ? query.where(eq(locationOptions.isActive, true)) : query).orderBy(
      sql`lower(${locationOptions.name})`,
      asc(locationOptions.id),
    );
  }

  async findForUpdate(tx: Tx, id: number): Promise<LocationRow | undefined> {
    const [row] = await tx.select().from(locationOptions).where(eq(locationOptions.id, id)).for('update');
    return row;
  }

  /** Undefined when another location already has this name in any letter case. */
  async insert(tx: Tx, fields: Pick<LocationRow, 'name' | 'isActive'>, now: Date): Promise<LocationRow | undefined> {
    const [row] = await tx
      .insert(locationOptions)
      .values({ ...fields, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning();
    return row;
  }

  /** Throws the driver's unique violation when the new name is taken (see isNameTaken). */
  async update(tx: Tx, id: number, changes: LocationChanges, now: Date): Promise<LocationRow> {
    const [row] = await tx
      .update(locationOptions)
      .set({ ...changes, updatedAt: now })
      .where(eq(locationOptions.id, id))
      .returning();
    return row;
  }

  async delete(tx: Tx, id: number): Promise<void> {
    await tx.delete(locationOptions).where(eq(locationOptions.id, id));
  }

  /**
   * Claims a once-per-deployment step. Replicas starting together queue on the primary key:
   * exactly one gets true; the others wait for its commit and get false.
   */
  async claimSeedStep(tx: Tx, step: string): Promise<boolean> {
    const rows = await tx.insert(seedSteps).values({ step }).onConflictDoNothing().returning({ step: seedSteps.step });
    return rows.length > 0;
  }
}

/** True when a write failed on the case-insensitive unique name index. */
export const isNameTaken = (err: unknown): boolean => isUniqueViolation(err, LOCATION_NAME_UNIQUE);
