import { z } from 'zod';

export const PIN_FORMAT = 'PIN must be exactly 4 digits';

const fourDigits = z.string({ required_error: PIN_FORMAT, invalid_type_error: PIN_FORMAT }).regex(/^\d{4}$/, PIN_FORMAT);

export const verifyPinSchema = z.object({ pin: fourDigits }).strict();

/** The PIN branch of PATCH /api/users/{id}; currentPin is required by identity when a PIN is set. */
export const changePinSchema = z
  .object({ currentPin: fourDigits.optional(), pinCode: fourDigits })
  .strict('Only currentPin and pinCode may be sent with a PIN change');

/** PUT /api/users/{id}/duress-pin (issue 13); duressPin null removes it. */
export const duressPinSchema = z
  .object({ currentPin: fourDigits, duressPin: fourDigits.nullable() })
  .strict('Only currentPin and duressPin may be sent');

/** Spec section 5, checks in the spec's order; values are trimmed as the spec's client does. The Change Password form checks with the same schema. */
export { changePasswordSchema } from '@lws/schemas';
