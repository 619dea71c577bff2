/** The API's words for PIN and password outcomes (docs/api-accounts.md); the gateway passes them through. */
export const INCORRECT_PIN = 'Incorrect PIN. Please try again.';
export const PIN_LOCKED = 'Too many incorrect PINs. PIN actions are locked for 15 minutes.';
export const NO_PIN_SET = 'No PIN set';
export const CURRENT_PIN_REQUIRED = 'Current PIN is required';
export const CURRENT_PASSWORD_INCORRECT = 'Current password is incorrect';
export const SUPERADMIN_ONLY = 'Only a superadmin can reset credentials';
export const USER_NOT_FOUND = 'User not found';

export const DURESS_SAME_AS_PIN = 'Your duress PIN must be different from your PIN';
export const PIN_SAME_AS_DURESS = 'Your PIN must be different from your duress PIN';
export const DURESS_WORKERS_ONLY = 'Only workers have a duress PIN';
export const NO_WORKER_WITH_PHONE = 'No worker has this phone number';
export const PHONE_SHARED = 'More than one worker has this phone number';
/** A texted PIN finds its worker by the sender's number, so no two workers may share one. */
export const PHONE_TAKEN = 'This phone number is already used by another worker';
