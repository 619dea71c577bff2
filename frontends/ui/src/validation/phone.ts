// The spec's UK phone rules, mirrored in the browser so mistakes show before a
// round trip. The server re-checks every number (with libphonenumber-js) and
// its answer is the one that counts.

export const UK_PHONE_PATTERN = /^\+44\d{10}$/;

export const PHONE_VALID_HINT = '✓ Valid UK format with +44 country code';
export const PHONE_PREFIX_HINT = 'Phone number MUST start with +44 (UK format)';

/**
 * Profile and contact phone normalisation (spec section 5): spaces removed, a leading 0
 * becomes +44, a leading 44 gets its +, other input without + gets +44 in front.
 */
export function normaliseUkPhone(raw: string): string {
  const s = raw.replace(/\s+/g, '');
  if (!s || s.startsWith('+')) return s;
  if (s.startsWith('0')) return `+44${s.slice(1)}`;
  if (s.startsWith('44')) return `+${s}`;
  return `+44${s}`;
}

/**
 * The same normalisation while typing. A lone "4" is left alone: it may be the
 * start of "44...", which must not become "+444".
 */
export function normaliseUkPhoneWhileTyping(raw: string): string {
  const s = raw.replace(/\s+/g, '');
  return s === '4' ? s : normaliseUkPhone(s);
}

export type PhoneHint = { tone: 'valid' | 'invalid' | 'neutral'; text: string } | null;

/** The live line under a profile or contact phone field. */
export function ukPhoneHint(value: string): PhoneHint {
  if (!value) return null;
  if (UK_PHONE_PATTERN.test(value)) return { tone: 'valid', text: PHONE_VALID_HINT };
  if (!value.startsWith('+44')) return { tone: 'invalid', text: PHONE_PREFIX_HINT };
  return { tone: 'neutral', text: '+44 followed by 10 digits' };
}

/** Profile and emergency-contact phone rules; the first broken rule's message, or null. */
export function validateUkPhone(phone: string): string | null {
  if (phone.length < 12) return 'Phone number must include country code';
  if (!phone.startsWith('+44')) return 'Phone number must start with +44 (UK format)';
  if (!UK_PHONE_PATTERN.test(phone)) return 'Phone number must be in format +44 followed by 10 digits';
  return null;
}

/** User creation (spec section 5): whitespace removed and a leading 44 given its + before sending. */
export function prepareCreationPhone(raw: string): string {
  const s = raw.replace(/\s+/g, '');
  return s.startsWith('44') ? `+${s}` : s;
}

/** User-creation phone rules, applied to the prepared value. */
export function validateCreationPhone(phone: string): string | null {
  if (phone.length < 5) return 'Phone number must include country code';
  if (!phone.startsWith('+44')) return 'Phone should start with +44 for UK format';
  return null;
}
