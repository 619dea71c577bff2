import { Injectable } from '@nestjs/common';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Tx } from '@lws/platform';
import { locations } from '../db/schema';

@Injectable()
export class LocationsRepository {
  /** The active location with this name (names are unique case-insensitively), as the locations service spells it. */
  async findActiveByName(tx: Tx, name: string): Promise<string | undefined> {
    const [row] = await tx
      .select({ name: locations.name })
      .from(locations)
      .where(and(sql`lower(${locations.name}) = lower(${name.trim()})`, eq(locations.isActive, true), isNull(locations.deletedAt)))
      .limit(1);
    return row?.name;
  }

  async created(tx: Tx, event: { locationId: number; name: string; isActive: boolean }): Promise<void> {
    // An update delivered first already holds newer values: creation only fills a missing row.
    await tx.insert(locations).values({ locationId: event.locationId, name: event.name, isActive: event.isActive }).onConflictDoNothing();
  }

  async updated(tx: Tx, event: { locationId: number; name: string; isActive: boolean }): Promise<void> {
    await tx
      .insert(locations)
      .values({ locationId: event.locationId, name: event.name, isActive: event.isActive })
      .onConflictDoUpdate({
        target: locations.locationId,
        set: { name: event.name, isActive: event.isActive },
        where: isNull(locations.deletedAt),
      });
  }

  async deleted(tx: Tx, locationId: number, at: Date): Promise<void> {
    await tx
      .insert(locations)
      .values({ locationId, name: '', isActive: false, deletedAt: at })
      .onConflictDoUpdate({ target: locations.locationId, set: { isActive: false, deletedAt: at } });
  }
}
