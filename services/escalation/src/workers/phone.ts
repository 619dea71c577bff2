import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * A number escalation can text or call, in E.164, or null. Identity validates numbers at its
 * edge, but settings contacts predate that rule: a national UK number is read as one. Possible,
 * not "valid": a number this library's metadata does not know yet is still worth a try when
 * someone's safety depends on reaching it; the provider reports a real failure.
 */
export function dialable(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const parsed = parsePhoneNumberFromString(raw.replace(/\s+/g, ''), 'GB');
  return parsed?.isPossible() ? parsed.number : null;
}
