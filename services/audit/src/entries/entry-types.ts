/** The activity types of spec section 3, with the labels the screens show. */
export const ENTRY_LABELS = {
  check_in: 'Check In',
  emergency: 'Emergency',
  missed_check_in: 'Missed Check-In',
  start_shift: 'Start Shift',
  end_shift: 'End Shift',
  sms_sent: 'SMS Sent',
  call_made: 'Call Made',
  system_alert: 'System Alert',
  // The worker's "+15 min", which is no check-in.
  extension: 'Check-In Extended',
  // A timed visit started or ended, or its sealed note read.
  visit: 'Visit',
} as const;

export type EntryType = keyof typeof ENTRY_LABELS;
export const ENTRY_TYPES = Object.keys(ENTRY_LABELS) as EntryType[];

/**
 * What a worker reads of their own log: what they did and what became of their check-ins. Not the
 * escalation's steps, messages, calls or system alerts, which are the monitors' record: whoever
 * holds a worker's phone must not learn from them who was called about the worker, or when.
 */
export const WORKER_VISIBLE_TYPES: readonly EntryType[] = [
  'check_in',
  'start_shift',
  'end_shift',
  'extension',
  'visit',
  'emergency',
  'missed_check_in',
];

/** The username shown on an entry that belongs to no user. */
export const SYSTEM_USERNAME = 'System';

/** Any type the spec does not name reads as 'Unknown'. */
export function labelOf(type: string): string {
  return Object.hasOwn(ENTRY_LABELS, type) ? ENTRY_LABELS[type as EntryType] : 'Unknown';
}

/** Spec section 3: a username built from the id when the user's own is not known. */
export function fallbackUsername(userId: number): string {
  return `user-${userId}`;
}

export function displayUsername(userId: number | null, username: string | null | undefined): string {
  if (username) return username;
  return userId === null ? SYSTEM_USERNAME : fallbackUsername(userId);
}
