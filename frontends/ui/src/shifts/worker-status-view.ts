import type { WorkerStatusUser } from '@lws/rules';
import type { ShiftState } from './shifts-api';

/**
 * The rules' view of a worker. The server's `nextCheckInTime` is the deadline whenever it sent
 * one (it already applies the worker's own check-in interval to the shift start or the last
 * check-in), so it stands in for the latest check-in's; without it the rules fall back to the
 * shift start plus one hour, as the spec does.
 */
export function statusUser(state: ShiftState): WorkerStatusUser {
  const nextCheckInTime = state.nextCheckInTime ?? state.latestCheckIn?.nextCheckInTime ?? null;
  return {
    onShift: state.onShift,
    shiftStartTime: state.shiftStartTime,
    latestCheckIn: state.latestCheckIn || nextCheckInTime ? { nextCheckInTime } : null,
  };
}
