import { Badge, TableCell, formatDateTime, type BadgeVariant } from '@lws/fe-ui';
import { ADMIN_STATUS_LABEL, adminStatus, type AdminStatus } from '@lws/rules';
import type { ShiftState } from './shifts-api';

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
 * The Location, Last Check-in and Status cells of a worker table (spec section 2): N/A when off
 * shift; 'Never' for a worker on shift who has not checked in yet.
 */
export function ShiftDetailCells({ state, now }: { state: ShiftState; now: Date }) {
  if (!state.onShift) {
    return (
      <>
        <TableCell data-testid="worker-location">N/A</TableCell>
        <TableCell data-testid="worker-last-check-in">N/A</TableCell>
        <TableCell data-testid="worker-status-cell">N/A</TableCell>
      </>
    );
  }
  return (
    <>
      <TableCell data-testid="worker-location">{state.location ?? 'N/A'}</TableCell>
      <TableCell data-testid="worker-last-check-in">{formatDateTime(state.latestCheckIn?.timestamp, 'Never')}</TableCell>
      <TableCell data-testid="worker-status-cell">
        <AdminStatusBadge nextCheckInTime={state.nextCheckInTime} now={now} />
      </TableCell>
    </>
  );
}
