import { useId } from 'react';
import { Card, CardContent, cx, msg, useServerTimeEvery, useT } from '@lws/fe-ui';
import { statusUser, type ShiftState } from '@lws/fe-ui/shifts';
import { CHECK_IN_HINTS, CHECK_IN_WINDOW_MS, checkInButton } from '@lws/rules';
import { emergencyResetActive } from '../emergency/emergency-reset';

/** Spec section 9: whether the button is open is rechecked every 5 s. */
export const CHECK_IN_RECHECK_MS = 5000;

/** The hints checkInButton (@lws/rules) gives, marked for translation: the card shows them through t(). */
export const CHECK_IN_HINT_TEXTS = {
  ready: msg("Press to confirm you're safe"),
  outsideWindow: msg('Check-in is required during the last 10 minutes of each hour'),
  noShift: msg('Start a shift first to enable check-in'),
  emergency: msg('Help has been requested. Check in again when your next check-in is due.'),
  processing: msg('Processing...'),
} satisfies typeof CHECK_IN_HINTS;

interface CheckInCardProps {
  shift: ShiftState;
  /** The deadline an emergency set, while the emergency-reset flag is on. */
  resetDeadline: string | null;
  processing: boolean;
  /** A monitor asks for a check-in now: the button opens whatever the deadline. */
  requested?: boolean;
  onCheckIn(): void;
}

/**
 * The large CHECK IN button: open in the last 10 minutes before the deadline, and after it, and
 * while a monitor asks for a check-in now. The emergency reset closes it only until that window:
 * the deadline the emergency set is a real one, and the worker must be able to meet it.
 */
export function CheckInCard({ shift, resetDeadline, processing, requested = false, onCheckIn }: CheckInCardProps) {
  const t = useT();
  const now = useServerTimeEvery(CHECK_IN_RECHECK_MS);
  const hintId = useId();
  const { latestCheckIn } = statusUser(shift);
  const nextCheckInTime = latestCheckIn?.nextCheckInTime ?? null;
  const beforeWindow = nextCheckInTime !== null && Date.parse(nextCheckInTime) - now.getTime() > CHECK_IN_WINDOW_MS;
  const emergencyReset = beforeWindow && emergencyResetActive(shift, resetDeadline, now);
  // The 10-minute window is the screen's rule, not the server's: it takes a check-in at any time,
  // and one a monitor asks for cannot wait for the window.
  const button =
    requested && shift.onShift && !processing
      ? ({ enabled: true, hint: CHECK_IN_HINTS.ready, tone: 'ready' } as const)
      : checkInButton({ onShift: shift.onShift, nextCheckInTime, emergencyReset, processing }, now);

  return (
    <Card data-testid="check-in-card">
      <CardContent className="lws-check-in">
        <button
          type="button"
          className={cx('lws-check-in__button', `lws-check-in__button--${button.tone}`)}
          disabled={!button.enabled}
          aria-describedby={hintId}
          onClick={onCheckIn}
          data-testid="check-in-button"
          data-tone={button.tone}
        >
          {t('CHECK IN')}
        </button>
        <p id={hintId} className={cx('lws-check-in__hint', `lws-check-in__hint--${button.tone}`)} data-testid="check-in-hint">
          {t(button.hint)}
        </p>
      </CardContent>
    </Card>
  );
}
