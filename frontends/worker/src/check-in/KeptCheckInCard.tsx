import { Alert, Button, formatTime, useT } from '@lws/fe-ui';
import type { KeptState } from './kept-check-in';

interface KeptCheckInCardProps {
  state: KeptState;
  onTryNow(): void;
  onDismiss(): void;
}

/**
 * A check-in that has not reached LWS yet, first on the worker's screen until it has:
 * the worker must never believe they are checked in when their monitors do not know it.
 */
export function KeptCheckInCard({ state, onTryNow, onDismiss }: KeptCheckInCardProps) {
  const t = useT();
  const { kept, sending, outcome } = state;
  if (kept) {
    return (
      <Alert variant="warning" title={t('Not sent yet')} data-testid="kept-check-in">
        <p>
          {t("Your check-in at {{time}} is not sent yet — we keep trying; reply to the SMS reminder if this doesn't clear.", {
            time: formatTime(kept.madeAt),
          })}
        </p>
        <Button size="sm" variant="outline" busy={sending} onClick={onTryNow} data-testid="kept-check-in-retry">
          {t('Try now')}
        </Button>
      </Alert>
    );
  }
  if (outcome?.kind === 'refused') {
    return (
      <Alert variant="error" title={t('Check-in not accepted')} data-testid="kept-check-in-refused">
        <p>
          {t('Your check-in at {{time}} reached LWS but was not accepted: {{reason}} Please check in again.', {
            time: formatTime(outcome.madeAt),
            reason: t(outcome.message),
          })}
        </p>
        <Button size="sm" variant="outline" onClick={onDismiss}>
          {t('OK')}
        </Button>
      </Alert>
    );
  }
  if (outcome?.kind === 'lost') {
    return (
      <Alert variant="warning" title={t('Check-in not sent')} data-testid="kept-check-in-lost">
        <p>
          {t('Your check-in at {{time}} was not sent before LWS was closed. Please check in again now.', {
            time: formatTime(outcome.madeAt),
          })}
        </p>
        <Button size="sm" variant="outline" onClick={onDismiss}>
          {t('OK')}
        </Button>
      </Alert>
    );
  }
  return null;
}
