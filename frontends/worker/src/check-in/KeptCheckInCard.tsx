import { Alert, Button, formatTime } from '@lws/fe-ui';
import type { KeptState } from './kept-check-in';

interface KeptCheckInCardProps {
  state: KeptState;
  onTryNow(): void;
  onDismiss(): void;
}

/**
 * A check-in that has not reached LWS yet (issue 13), first on the worker's screen until it has:
 * the worker must never believe they are checked in when their monitors do not know it.
 */
export function KeptCheckInCard({ state, onTryNow, onDismiss }: KeptCheckInCardProps) {
  const { kept, sending, outcome } = state;
  if (kept) {
    return (
      <Alert variant="warning" title="Not sent yet" data-testid="kept-check-in">
        <p>
          Your check-in at {formatTime(kept.madeAt)} is not sent yet — we keep trying; reply to the SMS reminder if this doesn&apos;t clear.
        </p>
        <Button size="sm" variant="outline" busy={sending} onClick={onTryNow} data-testid="kept-check-in-retry">
          Try now
        </Button>
      </Alert>
    );
  }
  if (outcome?.kind === 'refused') {
    return (
      <Alert variant="error" title="Check-in not accepted" data-testid="kept-check-in-refused">
        <p>
          Your check-in at {formatTime(outcome.madeAt)} reached LWS but was not accepted: {outcome.message} Please check in again.
        </p>
        <Button size="sm" variant="outline" onClick={onDismiss}>
          OK
        </Button>
      </Alert>
    );
  }
  if (outcome?.kind === 'lost') {
    return (
      <Alert variant="warning" title="Check-in not sent" data-testid="kept-check-in-lost">
        <p>Your check-in at {formatTime(outcome.madeAt)} was not sent before LWS was closed. Please check in again now.</p>
        <Button size="sm" variant="outline" onClick={onDismiss}>
          OK
        </Button>
      </Alert>
    );
  }
  return null;
}
