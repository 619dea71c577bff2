// The PIN and password rules, from @lws/schemas: the profile's forms check with the same schemas.
export { changePasswordSchema, changePinSchema, duressPinSchema, PIN_FORMAT, verifyPinSchema } from '@lws/schemas';
