import type { CommandMap } from '@lws/contracts';

type KioskView = CommandMap['identity.kiosk.enrol.v1']['reply']['kiosk'];

/** `Kiosk` of docs/api-accounts.md: absent times become null, and there is never a token. */
export function browserKiosk(k: KioskView) {
  return {
    id: k.id,
    name: k.name,
    location: k.location,
    enrolledAt: k.enrolledAt,
    enrolledBy: k.enrolledBy,
    lastUsedAt: k.lastUsedAt ?? null,
    revokedAt: k.revokedAt ?? null,
  };
}
