// Shift data and the cells every worker table shares. Imported as '@lws/fe-ui/shifts': bundled
// into each remote that uses it (with the status rules), while components come from the shared
// '@lws/fe-ui' singleton.
export { OFF_SHIFT, applyWorkerChange, checkInId, fetchActiveWorkers, parseShiftState, parseShiftWorkers } from './shifts-api';
export type { LatestCheckIn, ShiftState, ShiftWorker } from './shifts-api';
export { statusUser } from './worker-status-view';
export { ALARM_STATUS_RANK, AdminStatusBadge, ShiftDetailCells, ShiftStatusBadge } from './ShiftCells';
export type { OpenAlarmKind } from './ShiftCells';
