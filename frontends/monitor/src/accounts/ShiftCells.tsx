import { Badge, TableCell, formatDateTime, type BadgeVariant } from '@lws/fe-ui';
import { ADMIN_STATUS_LABEL, adminStatus, type AdminStatus } from '@lws/rules';
import type { ShiftState } from '@lws/fe-ui/shifts';

const STATUS_VARIANT: Record<AdminStatus, BadgeVariant> = {
  'checked-in': 'success',
  'due-soon': 'warning',
  overdue: 'danger',
};

export function ShiftStatusBadge({ onShift }: { onShift: boolean }) {
  return (
    <Badge variant={onShift ? 'success' : 'neutral'} data-testid="worker-shift-status">
      {onShift ? 'Clocked In' : 'Clocked Out'}
    </Badge>
  );
}

/** Checked In / Due Soon / Overdue as monitors see it (15-minute threshold); `now` is the server's time. */
export function AdminStatusBadge({ nextCheckInTime, now }: { nextCheckInTime: string | null; now: Date }) {
  const status = adminStatus(nextCheckInTime, now);
  return (
    <Badge variant={STATUS_VARIANT[status]} data-testid="worker-status" data-status={status}>
      {ADMIN_STATUS_LABEL[status]}
    </Badge>
  );
}

/**
 * An open alarm's status, red: an emergency outranks whatever the deadline says (raising one also
 * records a check-in); a missed check-in outranks Checked In and Due Soon (a late check-in while its
 * alarm still waits for a monitor), and past the deadline reads Overdue as the spec says.
 */
export type OpenAlarmKind = 'duress' | 'emergency' | 'missed_check_in';
const ALARM_STATUS_LABEL: Record<OpenAlarmKind, string> = { duress: 'DURESS', emergency: 'Emergency', missed_check_in: 'Missed Check-In' };
/** Which open alarm a worker's status shows when they have several: duress, then an emergency. */
export const ALARM_STATUS_RANK: Record<OpenAlarmKind, number> = { duress: 3, emergency: 2, missed_check_in: 1 };

function AlarmStatusBadge({ kind }: { kind: OpenAlarmKind }) {
  return (
    <Badge variant="danger" data-testid="worker-status" data-status={kind}>
      {ALARM_STATUS_LABEL[kind]}
    </Badge>
  );
}

/**
 * The Location, Last Check-in and Status cells of a worker table (spec section 2): N/A when off
 * shift; 'Never' for a worker on shift who has not checked in yet. A worker with an open alarm shows
 * it as the status, in red, on shift or not.
 */
export function ShiftDetailCells({ state, now, alarm }: { state: ShiftState; now: Date; alarm?: OpenAlarmKind }) {
  if (!state.onShift) {
    return (
      <>
        <TableCell data-testid="worker-location">N/A</TableCell>
        <TableCell data-testid="worker-last-check-in">N/A</TableCell>
        <TableCell data-testid="worker-status-cell">{alarm ? <AlarmStatusBadge kind={alarm} /> : 'N/A'}</TableCell>
      </>
    );
  }
  return (
    <>
      <TableCell data-testid="worker-location">{state.location ?? 'N/A'}</TableCell>
      <TableCell data-testid="worker-last-check-in">{formatDateTime(state.latestCheckIn?.timestamp, 'Never')}</TableCell>
      <TableCell data-testid="worker-status-cell">
        {alarm && (alarm === 'emergency' || adminStatus(state.nextCheckInTime, now) !== 'overdue') ? (
          <AlarmStatusBadge kind={alarm} />
        ) : (
          <AdminStatusBadge nextCheckInTime={state.nextCheckInTime} now={now} />
        )}
      </TableCell>
    </>
  );
}
