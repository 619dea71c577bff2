import type { CheckInView, WorkerStateView } from '@lws/contracts';
import type { CheckInRow, WorkerStateRow } from '../db/schema';

export function checkInView(row: Pick<CheckInRow, 'id' | 'checkedInAt' | 'location' | 'nextCheckInAt'>): CheckInView {
  return {
    id: row.id,
    checkedInAt: row.checkedInAt.toISOString(),
    location: row.location,
    nextCheckInAt: row.nextCheckInAt.toISOString(),
  };
}

/** The latest check-in of the current shift, from the columns worker_state keeps of it. */
export function latestCheckInOf(row: WorkerStateRow): CheckInView | undefined {
  if (!row.onShift || !row.latestCheckInId || !row.latestCheckInAt || !row.latestCheckInLocation || !row.nextCheckInAt) return undefined;
  return checkInView({
    id: row.latestCheckInId,
    checkedInAt: row.latestCheckInAt,
    location: row.latestCheckInLocation,
    nextCheckInAt: row.nextCheckInAt,
  });
}

export function workerView(row: WorkerStateRow): WorkerStateView {
  const latest = latestCheckInOf(row);
  return {
    userId: row.userId,
    ...(row.name !== null ? { name: row.name } : {}),
    ...(row.username !== null ? { username: row.username } : {}),
    ...(row.phone !== null ? { phone: row.phone } : {}),
    onShift: row.onShift,
    ...(row.onShift && row.currentShiftId ? { shiftId: row.currentShiftId } : {}),
    ...(row.onShift && row.location ? { location: row.location } : {}),
    ...(row.onShift && row.shiftStartedAt ? { shiftStartedAt: row.shiftStartedAt.toISOString() } : {}),
    ...(latest ? { latestCheckIn: latest } : {}),
    ...(row.onShift && row.nextCheckInAt ? { nextCheckInAt: row.nextCheckInAt.toISOString() } : {}),
    checkInInterval: row.checkInInterval,
    ...(row.onShift ? { extensionsLeft: row.extensionsLeft, extensionMinutesLeft: row.extensionMinutesLeft } : {}),
    ...(row.onShift && row.shiftNote ? { shiftNote: row.shiftNote } : {}),
    ...(row.onShift && row.visit ? { visit: row.visit } : {}),
  };
}

/** A user shifts has no row for reads as off shift with the default interval. */
export function unknownWorkerView(userId: number, checkInInterval: number): WorkerStateView {
  return { userId, onShift: false, checkInInterval };
}
