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

const CURRENT_REQUIRED = 'Current password is required';
const NEW_TOO_SHORT = 'New password must be at least 6 characters';

/** Spec section 5, checks in the spec's order; values are trimmed as the spec's client does. */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ required_error: CURRENT_REQUIRED, invalid_type_error: CURRENT_REQUIRED })
    .trim()
    .min(1, CURRENT_REQUIRED)
    .max(200, 'Password is too long'),
  newPassword: z
    .string({ required_error: NEW_TOO_SHORT, invalid_type_error: NEW_TOO_SHORT })
    .trim()
    .min(6, NEW_TOO_SHORT)
    .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
    .regex(/[0-9]/, 'Password must contain at least one number')
    .max(200, 'Password is too long'),
}).strict();
