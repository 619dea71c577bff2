import { z } from 'zod';
import { msg } from './msg';

/** The spec's UK number: +44 and ten digits. */
export const UK_PHONE_PATTERN = /^\+44\d{10}$/;

export const PHONE_NEEDS_COUNTRY_CODE = msg('Phone number must include country code');
export const PHONE_FORMAT = msg('Phone number must be in format +44 followed by 10 digits');
/** The format is right, but no UK line has that number (a range no operator uses, the drama range). */
export const PHONE_NOT_IN_USE = msg('This is not a UK phone number in use: check the digits');

/** User creation (spec section 5): spaces removed, a leading 44 gets its +. */
export function prepareCreationPhone(raw: string): string {
  const s = raw.replace(/\s+/g, '');
  return s.startsWith('44') ? `+${s}` : s;
}

/**
 * Profile and contact phones (spec section 5): spaces removed, a leading 0 becomes +44, a leading
 * 44 gets its +, other input without + gets +44 in front.
 */
export function normaliseUkPhone(raw: string): string {
  const s = raw.replace(/\s+/g, '');
  if (!s || s.startsWith('+')) return s;
  if (s.startsWith('0')) return `+44${s.slice(1)}`;
  if (s.startsWith('44')) return `+${s}`;
  return `+44${s}`;
}

const phoneText = z.string({ required_error: PHONE_NEEDS_COUNTRY_CODE, invalid_type_error: PHONE_NEEDS_COUNTRY_CODE });

/**
 * The creation form's phone, the spec's checks in order. The gateway adds a last one (a real UK
 * number, by libphonenumber-js) that the screens leave to it, to keep that library out of them.
 */
export const creationPhone = phoneText.transform(prepareCreationPhone).pipe(
  z
    .string()
    .min(5, PHONE_NEEDS_COUNTRY_CODE)
    .refine((p) => p.startsWith('+44'), msg('Phone should start with +44 for UK format'))
    .refine((p) => UK_PHONE_PATTERN.test(p), PHONE_FORMAT),
);

/** A profile's or emergency contact's phone, the spec's checks in order (the gateway adds the same last one). */
export const profilePhone = phoneText.transform(normaliseUkPhone).pipe(
  z
    .string()
    .min(12, PHONE_NEEDS_COUNTRY_CODE)
    .refine((p) => p.startsWith('+44'), msg('Phone number must start with +44 (UK format)'))
    .refine((p) => UK_PHONE_PATTERN.test(p), PHONE_FORMAT),
);

export const PHONE_REQUIRED = msg('Please enter a valid phone number');

/** Any country's number in international form, separators dropped: +, then 7 to 15 digits. */
export const internationalPhone = z
  .string({ required_error: PHONE_REQUIRED, invalid_type_error: PHONE_REQUIRED })
  .transform((p) => p.replace(/[\s()-]/g, ''))
  .pipe(z.string().regex(/^\+[1-9][0-9]{6,14}$/, PHONE_REQUIRED));
