import { useOnline, useT } from '@lws/fe-ui';

/** Says so while there is no network: what is on screen may be out of date. */
export function OfflineBanner({ worker }: { worker: boolean }) {
  const online = useOnline();
  const t = useT();
  if (online) return null;
  return (
    <div className="lws-notice lws-notice--offline" role="status" data-testid="offline-banner">
      {worker
        ? t("You're offline. Your screen shows what LWS last knew. A check-in you make now is kept and sent when the connection returns.")
        : t("You're offline. Statuses and alarms are not updating until the connection returns.")}
    </div>
  );
}
