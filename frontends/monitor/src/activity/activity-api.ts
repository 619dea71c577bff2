import { apiResponse, msg, parseActivityEntry, type ActivityEvent, type BadgeVariant } from '@lws/fe-ui';

export type ActivityEntry = ActivityEvent;

/** Spec section 3: the label of each entry type, in English (a screen shows it through `t()`); any other type shows as Unknown. */
export const ACTIVITY_LABELS: Readonly<Record<string, string>> = {
  check_in: msg('Check In'),
  emergency: msg('Emergency'),
  missed_check_in: msg('Missed Check-In'),
  start_shift: msg('Start Shift'),
  end_shift: msg('End Shift'),
  sms_sent: msg('SMS Sent'),
  call_made: msg('Call Made'),
  system_alert: msg('System Alert'),
  extension: msg('Check-In Extended'),
  visit: msg('Visit'),
};

export function activityLabel(type: string): string {
  return Object.hasOwn(ACTIVITY_LABELS, type) ? ACTIVITY_LABELS[type]! : msg('Unknown');
}

const VARIANTS: Readonly<Record<string, BadgeVariant>> = {
  check_in: 'success',
  emergency: 'danger',
  missed_check_in: 'danger',
  start_shift: 'info',
  end_shift: 'info',
  sms_sent: 'neutral',
  call_made: 'warning',
  system_alert: 'warning',
  extension: 'info',
  visit: 'info',
};

export function activityVariant(type: string): BadgeVariant {
  return Object.hasOwn(VARIANTS, type) ? VARIANTS[type]! : 'neutral';
}

/** Entries fetched per page. */
export const ACTIVITY_PAGE_SIZE = 50;

export interface ActivityPage {
  entries: ActivityEntry[];
  nextCursor: string | null;
}

/** One page of GET /api/activity-logs, newest first; entries a row cannot show are dropped. */
export async function fetchActivityPage({
  userId,
  cursor,
  signal,
}: {
  userId: number | null;
  cursor?: string | null;
  signal?: AbortSignal;
}): Promise<ActivityPage> {
  const query = new URLSearchParams({ limit: String(ACTIVITY_PAGE_SIZE) });
  if (userId !== null) query.set('userId', String(userId));
  if (cursor) query.set('cursor', cursor);
  const { body, headers } = await apiResponse(`/api/activity-logs?${query}`, { signal });
  if (!Array.isArray(body)) throw new Error(msg('Invalid response format from server'));
  const entries = body.map(parseActivityEntry).filter((e): e is ActivityEntry => e !== null);
  return { entries, nextCursor: headers.get('X-Next-Cursor') || null };
}

function newestFirst(a: ActivityEntry, b: ActivityEntry): number {
  return Date.parse(b.timestamp) - Date.parse(a.timestamp) || b.id - a.id;
}

/** `incoming` merged into `current`: one row per id (the incoming copy wins), newest first. */
export function mergeEntries(current: readonly ActivityEntry[], incoming: readonly ActivityEntry[]): ActivityEntry[] {
  const byId = new Map<number, ActivityEntry>();
  for (const e of current) byId.set(e.id, e);
  for (const e of incoming) byId.set(e.id, e);
  return [...byId.values()].sort(newestFirst);
}
