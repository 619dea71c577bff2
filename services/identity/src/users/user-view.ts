import type { UserRow } from '../db/schema';

/** What other services and the browser may see of a user: never a hash. */
export function toUserView(row: UserRow) {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    role: row.role,
    ...(row.phone ? { phone: row.phone } : {}),
    ...(row.medicalInfo ? { medicalInfo: row.medicalInfo } : {}),
    createdAt: row.createdAt.toISOString(),
    pinSet: row.pinHash !== null,
    ...(row.duressPinHash !== null ? { duressPinSet: true } : {}),
    passwordIsTemporary: row.passwordIsTemporary,
    ...(row.teamId !== null ? { teamId: row.teamId } : {}),
    ...(row.awayUntil ? { awayUntil: row.awayUntil.toISOString() } : {}),
    ...(row.createdBy !== null ? { createdBy: row.createdBy } : {}),
    language: row.language,
    ...(row.disabledAt ? { disabled: true } : {}),
    ...(row.email ? { email: row.email } : {}),
    ...(row.externalId ? { externalId: row.externalId } : {}),
  };
}

/**
 * identity.user.created.v1 and identity.user.updated.v1 as other services hear them: the whole
 * profile at its version, a worker's team, and until when an admin is away. Medical information
 * stays in identity.
 */
export function userCreatedEvent(row: UserRow) {
  return { ...userUpdatedEvent(row), username: row.username };
}

export function userUpdatedEvent(row: UserRow) {
  return {
    userId: row.id,
    name: row.name,
    role: row.role,
    ...(row.phone ? { phone: row.phone } : {}),
    version: row.version,
    ...(row.teamId !== null ? { teamId: row.teamId } : {}),
    ...(row.awayUntil ? { awayUntil: row.awayUntil.toISOString() } : {}),
    language: row.language,
  };
}
