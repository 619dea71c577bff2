import { Badge, TableCell, formatDateTime, formatTime, msg, useT, type BadgeVariant } from '@lws/fe-ui';
import { adminStatus, type AdminStatus } from '@lws/rules';
import type { ShiftState, Visit } from '@lws/fe-ui/shifts';

const STATUS_VARIANT: Record<AdminStatus, BadgeVariant> = {
  'checked-in': 'success',
  'due-soon': 'warning',
  overdue: 'danger',
};

/** ADMIN_STATUS_LABEL (@lws/rules), marked for translation. */
const STATUS_LABEL: Record<AdminStatus, string> = {
  'checked-in': msg('Checked In'),
  'due-soon': msg('Due Soon'),
  overdue: msg('Overdue'),
};

export function ShiftStatusBadge({ onShift }: { onShift: boolean }) {
  const t = useT();
  return (
    <Badge variant={onShift ? 'success' : 'neutral'} data-testid="worker-shift-status">
      {onShift ? t('Clocked In') : t('Clocked Out')}
    </Badge>
  );
}

/** Checked In / Due Soon / Overdue as monitors see it (15-minute threshold); `now` is the server's time. */
export function AdminStatusBadge({ nextCheckInTime, now }: { nextCheckInTime: string | null; now: Date }) {
  const t = useT();
  const status = adminStatus(nextCheckInTime, now);
  return (
    <Badge variant={STATUS_VARIANT[status]} data-testid="worker-status" data-status={status}>
      {t(STATUS_LABEL[status])}
    </Badge>
  );
}

/**
 * An open alarm's status, red: an emergency outranks whatever the deadline says (raising one also
 * records a check-in); a missed check-in outranks Checked In and Due Soon (a late check-in while its
 * alarm still waits for a monitor), and past the deadline reads Overdue as the spec says.
 */
export type OpenAlarmKind = 'duress' | 'emergency' | 'missed_check_in';
const ALARM_STATUS_LABEL: Record<OpenAlarmKind, string> = {
  duress: msg('DURESS'),
  emergency: msg('Emergency'),
  missed_check_in: msg('Missed Check-In'),
};
/** Which open alarm a worker's status shows when they have several: duress, then an emergency. */
export const ALARM_STATUS_RANK: Record<OpenAlarmKind, number> = { duress: 3, emergency: 2, missed_check_in: 1 };

function AlarmStatusBadge({ kind }: { kind: OpenAlarmKind }) {
  const t = useT();
  return (
    <Badge variant="danger" data-testid="worker-status" data-status={kind}>
      {t(ALARM_STATUS_LABEL[kind])}
    </Badge>
  );
}

/**
 * The Location, Last Check-in and Status cells of a worker table (spec section 2): N/A when off
 * shift; 'Never' for a worker on shift who has not checked in yet. A worker with an open alarm shows
 * it as the status, in red, on shift or not.
 */
export function ShiftDetailCells({ state, now, alarm }: { state: ShiftState; now: Date; alarm?: OpenAlarmKind }) {
  const t = useT();
  if (!state.onShift) {
    return (
      <>
        <TableCell data-testid="worker-location">{t('N/A')}</TableCell>
        <TableCell data-testid="worker-last-check-in">{t('N/A')}</TableCell>
        <TableCell data-testid="worker-status-cell">{alarm ? <AlarmStatusBadge kind={alarm} /> : t('N/A')}</TableCell>
      </>
    );
  }
  return (
    <>
      <TableCell data-testid="worker-location">{state.location ?? t('N/A')}</TableCell>
      <TableCell data-testid="worker-last-check-in">{formatDateTime(state.latestCheckIn?.timestamp, t('Never'))}</TableCell>
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

/**
 * A worker's timed visit under way, on their row: where, until when, and its type when they chose
 * one. Nothing of its sealed note: the row never has it.
 */
export function VisitLine({ visit }: { visit: Visit }) {
  const t = useT();
  return (
    <div className="lws-muted" data-testid="worker-visit" data-visit-id={visit.id}>
      {t('On a visit: {{where}} until {{time}}', { where: visit.where, time: formatTime(visit.endsAt) })}
      {visit.type ? (
        <>
          {' '}
          <Badge variant="info" data-testid="worker-visit-type">
            {visit.type.name}
          </Badge>
        </>
      ) : null}
    </div>
  );
}
