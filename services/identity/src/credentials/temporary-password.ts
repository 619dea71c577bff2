import { randomInt } from 'node:crypto';

// No look-alikes (0/O, 1/l/I): the superadmin reads it out or copies it to the user.
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const DIGITS = '23456789';
const ALPHABET = UPPER + LOWER + DIGITS;
const LENGTH = 14;

/** ~80 random bits that always meet the password policy (≥ 6, an uppercase letter, a digit). */
export function temporaryPassword(): string {
  for (;;) {
    let out = '';
    for (let i = 0; i < LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
    if (/[A-Z]/.test(out) && /[0-9]/.test(out)) return out;
  }
}
