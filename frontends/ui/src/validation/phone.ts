// What a phone field does as the user types: +44 form and a hint line. The rules that refuse a
// number are the forms' schemas in @lws/schemas (the gateway's own), loaded with the forms; this
// stays free of them so every page can show a phone field without the validation library.

import { msg } from '../i18n/i18n';

export const UK_PHONE_PATTERN = /^\+44\d{10}$/;

export const PHONE_VALID_HINT = msg('✓ Valid UK format with +44 country code');
export const PHONE_PREFIX_HINT = msg('Phone number MUST start with +44 (UK format)');

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

/** The live line under a profile or contact phone field, in English: the field shows it through `t()`. */
export function ukPhoneHint(value: string): PhoneHint {
  if (!value) return null;
  if (UK_PHONE_PATTERN.test(value)) return { tone: 'valid', text: PHONE_VALID_HINT };
  if (!value.startsWith('+44')) return { tone: 'invalid', text: PHONE_PREFIX_HINT };
  return { tone: 'neutral', text: msg('+44 followed by 10 digits') };
}
