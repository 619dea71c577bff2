import type { KioskRow } from '../db/schema';

/** A kiosk as admins see it: never its token or the token's hash. */
export function toKioskView(row: KioskRow) {
  return {
    id: row.id,
    name: row.name,
    location: row.location,
    ...(row.locationId !== null ? { locationId: row.locationId } : {}),
    enrolledAt: row.enrolledAt.toISOString(),
    enrolledBy: row.enrolledBy,
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    ...(row.revokedAt ? { revokedAt: row.revokedAt.toISOString() } : {}),
  };
}
