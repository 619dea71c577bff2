import type { EmergencyContactRow, UserSettingsRow } from '../db/schema';

export function toContactView(row: EmergencyContactRow) {
  return { id: row.id, userId: row.userId, name: row.name, phone: row.phone, relation: row.relation };
}

export function toSettingsView(row: UserSettingsRow) {
  return {
    userId: row.userId,
    primaryContact: row.primaryContact,
    ...(row.secondaryContact ? { secondaryContact: row.secondaryContact } : {}),
    checkInInterval: row.checkInInterval,
  };
}
