const MINUTE = 60_000;

/** Spec section 9. */
export const WORKER_DUE_SOON_MS = 10 * MINUTE;
export const ADMIN_DUE_SOON_MS = 15 * MINUTE;
export const FAR_FUTURE_MS = 24 * 60 * MINUTE;
export const CHECK_IN_WINDOW_MS = 10 * MINUTE;
export const DEFAULT_CHECK_IN_INTERVAL_MINUTES = 60;
export const CHECK_IN_INTERVALS = [30, 50, 60, 120, 240] as const;
export const DEFAULT_LOCATION = 'The Prospect Building';
