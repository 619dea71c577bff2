import { Alert, Button, formatDateTime, formatTime, serverNow, useT } from '@lws/fe-ui';
import type { ShiftState } from '@lws/fe-ui/shifts';

export type CoverWarning = NonNullable<ShiftState['coverWarning']>;

/** The London calendar day of an instant ("28 Nov 2026"). */
const londonDay = (at: string | Date) => formatDateTime(typeof at === 'string' ? at : at.toISOString()).split(', ')[0];

/** A time of the gap: the time of day alone ("14:00") today, with its date ("29 Nov 2026, 02:00") on another day. */
export function coverTime(iso: string, today: Date): string {
  return londonDay(iso) === londonDay(today) ? formatTime(iso) : formatDateTime(iso);
}

interface CoverWarningAlertProps {
  warning: CoverWarning;
  onDismiss(): void;
}

/**
 * The shift has started, but nobody is on call for the worker's team for part of it (the team warns
 * rather than refuses): the worker is told when, and that the emergency button still reaches help.
 */
export function CoverWarningAlert({ warning, onDismiss }: CoverWarningAlertProps) {
  const t = useT();
  const today = serverNow();
  return (
    <Alert variant="warning" title={t('Nobody on call for part of your shift')} data-testid="cover-warning">
      <p>
        {t(
          'Nobody is on call for your team from {{start}} to {{end}}. If something happens then, press the emergency button: your emergency contacts and the emergency numbers are still called.',
          { start: coverTime(warning.gapStart, today), end: coverTime(warning.gapEnd, today) },
        )}
      </p>
      <Button size="sm" variant="outline" onClick={onDismiss} data-testid="cover-warning-dismiss">
        {t('OK')}
      </Button>
    </Alert>
  );
}
