import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';

type KioskView = CommandMap['identity.kiosk.enrol.v1']['reply']['kiosk'];

/** Each location's name as it is now, by id (the locations service owns them). */
export async function locationNames(rpc: RpcClient): Promise<Map<number, string>> {
  const { locations } = await rpc.send('locations.location.list.v1', {});
  return new Map(locations.map((l) => [l.id, l.name]));
}

/**
 * A kiosk's location as people read it: its location's name now (a rename shows at once), or the
 * name it was enrolled at while the location is gone or the kiosk not yet bound to one.
 */
export function kioskLocationName(names: Map<number, string>, locationId: number | undefined, enrolledAt: string): string {
  return (locationId !== undefined ? names.get(locationId) : undefined) ?? enrolledAt;
}

/** A kiosk as the screens see it: absent times become null, and there is never a token. */
export function browserKiosk(k: KioskView, names: Map<number, string>) {
  return {
    id: k.id,
    name: k.name,
    location: kioskLocationName(names, k.locationId, k.location),
    locationId: k.locationId ?? null,
    enrolledAt: k.enrolledAt,
    enrolledBy: k.enrolledBy,
    lastUsedAt: k.lastUsedAt ?? null,
    revokedAt: k.revokedAt ?? null,
  };
}
