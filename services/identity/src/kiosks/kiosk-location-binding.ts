import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { RpcClient } from '@lws/messaging';
import { Chores, DB, LOGGER, RPC, type Db, type Logger } from '@lws/platform';
import { kiosks } from '../db/schema';

/** A round with every kiosk bound is one read of a small table and no call. */
const BIND_EVERY_MS = 15_000;

/**
 * Kiosks enrolled before they were bound to a location by id kept only its name. Identity cannot
 * read the locations service's tables, so it asks that service for the list and binds each such
 * kiosk to the location of that name (in any letter case): at start-up, and whenever another
 * unbound kiosk appears (an older gateway enrolling by name during an upgrade). A round that cannot
 * reach the locations service (not started yet, or down) fails, is logged once per outage, and is
 * tried again at the next period. A kiosk whose name matches no location stays unbound (its roster
 * is every worker and only the superadmin lists it) and is not asked about again until the next start.
 */
@Injectable()
export class KioskLocationBinding implements OnApplicationBootstrap {
  private readonly unmatched = new Set<number>();

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly chores: Chores,
  ) {}

  onApplicationBootstrap(): void {
    this.chores.every('kiosk-location-binding', BIND_EVERY_MS, () => this.bind(), { runNow: true });
  }

  /** The number of kiosks bound by this round. */
  async bind(): Promise<number> {
    const unbound = (
      await this.db.select({ id: kiosks.id, location: kiosks.location }).from(kiosks).where(isNull(kiosks.locationId))
    ).filter((k) => !this.unmatched.has(k.id));
    if (unbound.length === 0) return 0;
    const { locations } = await this.rpc.send('locations.location.list.v1', {});
    const byName = new Map(locations.map((l) => [l.name.toLowerCase(), l.id]));
    let bound = 0;
    for (const kiosk of unbound) {
      const locationId = byName.get(kiosk.location.trim().toLowerCase());
      if (locationId === undefined) {
        this.unmatched.add(kiosk.id);
        this.logger.warn({ kioskId: kiosk.id }, 'a kiosk enrolled by name names no location; it stays unbound until a restart finds one');
        continue;
      }
      // Another replica may have bound it meanwhile: the first binding stands.
      const rows = await this.db
        .update(kiosks)
        .set({ locationId })
        .where(and(eq(kiosks.id, kiosk.id), isNull(kiosks.locationId)))
        .returning({ id: kiosks.id });
      bound += rows.length;
    }
    if (bound > 0) this.logger.info({ bound }, 'kiosks enrolled by name bound to their location by id');
    return bound;
  }
}
