import type { ReactNode } from 'react';
import type { Load } from '../query/query-client';
import { Alert } from './Alert';
import { Skeleton } from './Skeleton';

export interface LoadViewProps<T> {
  load: Load<T>;
  /** What assistive technology hears while the first read runs ('Loading API tokens'). */
  loadingLabel: string;
  /** Shown when the first read failed. */
  errorText: string;
  /** The states' test ids: `${testId}-error`, `${testId}-empty`. */
  testId: string;
  /** Shown instead of the children when the data is an empty list. */
  emptyText?: string;
  skeletonHeight?: string;
  children: (data: T) => ReactNode;
}

/** One read as a card shows it: a skeleton, then the error, the empty text or the data. */
export function LoadView<T>({ load, loadingLabel, errorText, testId, emptyText, skeletonHeight = '6rem', children }: LoadViewProps<T>) {
  if (load.state === 'loading') {
    return (
      <div role="status" aria-label={loadingLabel}>
        <Skeleton height={skeletonHeight} />
      </div>
    );
  }
  if (load.state === 'error') {
    return (
      <Alert variant="error" data-testid={`${testId}-error`}>
        {errorText}
      </Alert>
    );
  }
  if (emptyText !== undefined && Array.isArray(load.data) && load.data.length === 0) {
    return (
      <p className="lws-muted" data-testid={`${testId}-empty`}>
        {emptyText}
      </p>
    );
  }
  return <>{children(load.data)}</>;
}
