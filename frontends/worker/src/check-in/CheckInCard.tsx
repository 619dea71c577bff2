import { useId } from 'react';
import { Card, CardContent, cx, useServerTimeEvery } from '@lws/fe-ui';
import { statusUser, type ShiftState } from '@lws/fe-ui/shifts';
import { checkInButton } from '@lws/rules';

/** Spec section 9: whether the button is open is rechecked every 5 s. */
export const CHECK_IN_RECHECK_MS = 5000;

/** The large CHECK IN button: open in the last 10 minutes before the deadline, and after it. */
export function CheckInCard({ shift, processing, onCheckIn }: { shift: ShiftState; processing: boolean; onCheckIn(): void }) {
  const now = useServerTimeEvery(CHECK_IN_RECHECK_MS);
  const hintId = useId();
  const { latestCheckIn } = statusUser(shift);
  const button = checkInButton({ onShift: shift.onShift, nextCheckInTime: latestCheckIn?.nextCheckInTime ?? null, processing }, now);

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
