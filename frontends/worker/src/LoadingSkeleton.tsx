import { Skeleton } from '@lws/fe-ui';

/** The shape of the worker screen while the user and their shift load. */
export function LoadingSkeleton() {
  return (
    <div className="lws-page" role="status" aria-label="Loading your dashboard" data-testid="worker-loading">
      <Skeleton height="10rem" />
      <Skeleton height="8rem" />
      <Skeleton height="6rem" />
    </div>
  );
}
