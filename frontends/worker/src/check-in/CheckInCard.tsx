import { useId } from 'react';
import { Card, CardContent, cx, useServerTimeEvery } from '@lws/fe-ui';
import { statusUser, type ShiftState } from '@lws/fe-ui/shifts';
import { CHECK_IN_WINDOW_MS, checkInButton } from '@lws/rules';
import { emergencyResetActive } from '../emergency/emergency-reset';

/** Spec section 9: whether the button is open is rechecked every 5 s. */
export const CHECK_IN_RECHECK_MS = 5000;

interface CheckInCardProps {
  shift: ShiftState;
  /** The deadline an emergency set, while the emergency-reset flag is on. */
  resetDeadline: string | null;
  processing: boolean;
  onCheckIn(): void;
}

/**
 * The large CHECK IN button: open in the last 10 minutes before the deadline, and after it. The
 * emergency reset closes it only until that window: the deadline the emergency set is a real one,
 * and the worker must be able to meet it.
 */
export function CheckInCard({ shift, resetDeadline, processing, onCheckIn }: CheckInCardProps) {
  const now = useServerTimeEvery(CHECK_IN_RECHECK_MS);
  const hintId = useId();
  const { latestCheckIn } = statusUser(shift);
  const nextCheckInTime = latestCheckIn?.nextCheckInTime ?? null;
  const beforeWindow = nextCheckInTime !== null && Date.parse(nextCheckInTime) - now.getTime() > CHECK_IN_WINDOW_MS;
  const emergencyReset = beforeWindow && emergencyResetActive(shift, resetDeadline, now);
  const button = checkInButton({ onShift: shift.onShift, nextCheckInTime, emergencyReset, processing }, now);

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
          CHECK IN
        </button>
        <p id={hintId} className={cx('lws-check-in__hint', `lws-check-in__hint--${button.tone}`)} data-testid="check-in-hint">
          {button.hint}
        </p>
      </CardContent>
    </Card>
  );
}
