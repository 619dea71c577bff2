// Shift data shared by the worker screen and the monitors' tables, and the check-in requests a
// monitor asks. Imported as '@lws/fe-ui/shifts': bundled into each remote that uses it (with the
// status rules), while components come from the shared '@lws/fe-ui' singleton. The table cells
// live with the tables, in '@lws/fe-monitor'.
export { OFF_SHIFT, applyWorkerChange, checkInId, fetchActiveWorkers, parseShiftState, parseShiftWorkers, parseVisit } from './shifts-api';
export type { LatestCheckIn, ShiftState, ShiftWorker, Visit } from './shifts-api';
export { statusUser } from './worker-status-view';
export {
  askToCheckIn,
  fetchCheckInBatch,
  fetchCheckInBatches,
  fetchOwnCheckInRequest,
  parseCheckInBatch,
  parseCheckInBatches,
  parseOwnCheckInRequest,
} from './checkin-requests-api';
export type { CheckInBatch, CheckInBatchWorker, CheckInTarget, CheckInWorkerState, OwnCheckInRequest } from './checkin-requests-api';
