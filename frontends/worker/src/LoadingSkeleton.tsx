import { Skeleton, useT } from '@lws/fe-ui';

/** The shape of the worker screen while the user and their shift load. */
export function LoadingSkeleton() {
  const t = useT();
  return (
    <div className="lws-page" role="status" aria-label={t('Loading your dashboard')} data-testid="worker-loading">
      <Skeleton height="10rem" />
      <Skeleton height="8rem" />
      <Skeleton height="6rem" />
    </div>
  );
}
