import type { AlarmVisit, CheckInView, WorkerStateView } from '@lws/contracts';

/** What the browser shows for a worker off shift (spec section 3). */
export const OFF_SHIFT_LOCATION = 'Off Shift';

/** `LatestCheckIn` of spec section 3. */
export function browserCheckIn(c: CheckInView) {
  return { id: c.id, timestamp: c.checkedInAt, location: c.location, nextCheckInTime: c.nextCheckInAt };
}

/** A timed visit as the browser sees it: never its sealed note, only whether there is one. */
export function browserVisit(v: AlarmVisit & { checkInInterval?: number }) {
  return {
    id: v.id,
    where: v.where,
    startedAt: v.startedAt,
    endsAt: v.endsAt,
    hasNote: v.hasNote,
    type: v.typeId && v.typeName ? { id: v.typeId, name: v.typeName } : null,
    checkInInterval: v.checkInInterval ?? null,
  };
}

/** The shift part of a worker as the browser sees it; null where there is nothing (off shift, no check-in yet, no visit). */
export function shiftFields(w: WorkerStateView) {
  return {
    onShift: w.onShift,
    location: w.onShift ? (w.location ?? null) : OFF_SHIFT_LOCATION,
    shiftStartTime: w.shiftStartedAt ?? null,
    latestCheckIn: w.latestCheckIn ? browserCheckIn(w.latestCheckIn) : null,
    nextCheckInTime: w.nextCheckInAt ?? null,
    visit: w.onShift && w.visit ? browserVisit(w.visit) : null,
  };
}

/** On shift: the "+15 min" presses and minutes the shift has left; absent off shift. */
export function extensionFields(w: WorkerStateView) {
  return w.onShift ? { extensionsLeft: w.extensionsLeft ?? 0, extensionMinutesLeft: w.extensionMinutesLeft ?? 0 } : {};
}

/** On shift: "where I'll be" as the worker wrote it (null: none); absent off shift. */
export function shiftNoteField(w: WorkerStateView) {
  return w.onShift ? { shiftNote: w.shiftNote ?? null } : {};
}

/** `Worker` of the shifts API: the dashboards' rows and the answer of every shift change. */
export function browserWorker(w: WorkerStateView) {
  return { id: w.userId, name: w.name ?? null, username: w.username ?? null, phone: w.phone ?? null, ...shiftFields(w) };
}
