import type { EventMap } from '@lws/contracts';

/**
 * What an `identity.user.updated.v1` sets in a copy of the profile, and at which version. With a
 * version the event is the whole profile (an absent phone means none); events from before
 * versions carry only what changed, at version 0, which applies only where no versioned event has.
 */
export function profileUpdate(e: EventMap['identity.user.updated.v1']): {
  version: number;
  changes: { name?: string | null; phone?: string | null; role?: string | null };
} {
  if (e.version) return { version: e.version, changes: { name: e.name ?? null, phone: e.phone ?? null, role: e.role ?? null } };
  return {
    version: 0,
    changes: {
      ...(e.name !== undefined ? { name: e.name } : {}),
      ...(e.phone !== undefined ? { phone: e.phone } : {}),
      ...(e.role !== undefined ? { role: e.role } : {}),
    },
  };
}
