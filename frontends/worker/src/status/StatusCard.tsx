import { Button, Card, CardContent, CardHeader, CardTitle, formatTime, msg, useServerClock, useServerTimeEvery, useT } from '@lws/fe-ui';
import { statusUser, type ShiftState } from '@lws/fe-ui/shifts';
import { formatCountdown, statusPill, workerDeadline, workerOwnStatus, type PillStatus } from '@lws/rules';
import { emergencyResetActive } from '../emergency/emergency-reset';

/** Spec section 9: the status is recomputed every 15 s; the countdown ticks every second. */
export const STATUS_RECHECK_MS = 15_000;
const COUNTDOWN_TICK_MS = 1000;

/** The texts statusPill (@lws/rules) gives the pill, marked for translation: the pill shows them through t(). */
export const PILL_TEXTS: Record<PillStatus, string> = {
  safe: msg("You're checked in"),
  'due-soon': msg('Check-in due soon'),
  overdue: msg('Check-in overdue'),
  'emergency-reset': msg('Help requested'),
  unavailable: msg('Status unavailable'),
};

/**
 * 'Your Status': the pill, the live countdown to the next check-in and the deadline, all on the
 * server's clock. When the countdown reaches zero the pill turns overdue at once rather than at
 * the next 15-second recheck. After an emergency the pill says so until the deadline it set.
 */
export interface StatusCardProps {
  shift: ShiftState;
  resetDeadline: string | null;
  /** "+15 min" presses the shift has left: offered beside the deadline while it is ahead. */
  extensionsLeft: number;
  extending: boolean;
  onExtend(): void;
}

export function StatusCard({ shift, resetDeadline, extensionsLeft, extending, onExtend }: StatusCardProps) {
  const t = useT();
  const clock = useServerClock(COUNTDOWN_TICK_MS);
  const statusNow = useServerTimeEvery(STATUS_RECHECK_MS);
  const user = statusUser(shift);
  const now = clock.now();
  const deadline = workerDeadline({ user }, now);
  const remaining = deadline.getTime() - now.getTime();
  const status = emergencyResetActive(shift, resetDeadline, now)
    ? 'emergency-reset'
    : remaining <= 0
      ? 'overdue'
      : workerOwnStatus({ user }, statusNow);
  const pill = statusPill(status);

  return (
    <Card data-testid="status-card">
      {/* The pill beside the title: the card stays short enough for the emergency action to fit a phone's first screen. */}
      <CardHeader className="lws-card__header--row">
        <CardTitle>{t('Your Status')}</CardTitle>
        <span className={`lws-pill lws-pill--${pill.tone}`} data-testid="status-pill" data-status={status}>
          {t(pill.text)}
        </span>
      </CardHeader>
      <CardContent className="lws-status">
        <p className="lws-countdown">
          {t('Next check-in required:')}{' '}
          <time className="lws-countdown__value" dateTime={deadline.toISOString()} data-testid="countdown" role="timer" aria-live="off">
            {formatCountdown(remaining)}
          </time>
        </p>
        <div className="lws-status__deadline">
          <p className="lws-muted" data-testid="check-in-deadline">
            {t('Check-in deadline: {{time}}', { time: formatTime(deadline) })}
          </p>
          {shift.onShift && extensionsLeft > 0 && remaining > 0 ? (
            <Button
              variant="outline"
              size="sm"
              busy={extending}
              onClick={onExtend}
              aria-label={t('+15 min: add 15 minutes before your check-in ({{left}} left this shift)', { left: extensionsLeft })}
              title={t('{{left}} left this shift', { left: extensionsLeft })}
              data-left={extensionsLeft}
              data-testid="extend-button"
            >
              {t('+15 min')}
            </Button>
          ) : null}
        </div>
      </CardContent>
    </Card>
  );
}
