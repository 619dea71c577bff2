import { Alert, formatTime, useT } from '@lws/fe-ui';
import type { OwnCheckInRequest } from '@lws/fe-ui/shifts';

/** A monitor asks the worker to check in now: answered by the CHECK IN below, before the time given. */
export function CheckInRequestAlert({ request }: { request: OwnCheckInRequest }) {
  const t = useT();
  return (
    <Alert
      variant="warning"
      title={
        request.requestedByName
          ? t('{{name}} asks you to check in now', { name: request.requestedByName })
          : t('Your monitor asks you to check in now')
      }
      data-testid="checkin-request-alert"
    >
      <p data-testid="checkin-request-alert-due">{t('Check in by {{time}}', { time: formatTime(request.dueAt) })}</p>
    </Alert>
  );
}
