import type { LocationRow } from '../db/schema';

export function toLocationView(row: LocationRow) {
  return { id: row.id, name: row.name, isActive: row.isActive, createdAt: row.createdAt.toISOString() };
}
