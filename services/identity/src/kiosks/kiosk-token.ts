import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits: the device cookie of an enrolled kiosk. */
export function newKioskToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this is stored, so a database dump cannot be replayed as a kiosk cookie. */
export function kioskTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
