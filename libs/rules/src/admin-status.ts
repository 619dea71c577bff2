import { ADMIN_DUE_SOON_MS } from './constants';
import { toDate } from './time';

export type AdminStatus = 'checked-in' | 'due-soon' | 'overdue';

export const ADMIN_STATUS_LABEL: Record<AdminStatus, string> = {
  'checked-in': 'Checked In',
  'due-soon': 'Due Soon',
  overdue: 'Overdue',
};

/** An on-shift worker as monitors see it (spec section 4, "Admin-side status"). */
export function adminStatus(nextCheckInTime: string | Date | null | undefined, now: Date): AdminStatus {
  const next = toDate(nextCheckInTime);
  if (!next) return 'checked-in';
  const remaining = next.getTime() - now.getTime();
  if (remaining <= 0) return 'overdue';
  if (remaining < ADMIN_DUE_SOON_MS) return 'due-soon';
  return 'checked-in';
}
