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
    passwordIsTemporary: row.passwordIsTemporary,
    ...(row.teamId !== null ? { teamId: row.teamId } : {}),
  };
}
