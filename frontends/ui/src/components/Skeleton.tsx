import type { CSSProperties } from 'react';
import { cx } from './cx';

export interface SkeletonProps {
  width?: CSSProperties['width'];
  height?: CSSProperties['height'];
  className?: string;
}

/** A placeholder block; pair a group of them with one accessible loading text. */
export function Skeleton({ width = '100%', height = '1rem', className }: SkeletonProps) {
  return <span className={cx('lws-skeleton', className)} style={{ width, height }} aria-hidden="true" />;
}
