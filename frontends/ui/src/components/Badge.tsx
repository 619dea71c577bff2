import type { HTMLAttributes } from 'react';
import { cx } from './cx';

export type BadgeVariant = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = 'neutral', className, ...rest }: BadgeProps) {
  return <span className={cx('lws-badge', `lws-badge--${variant}`, className)} {...rest} />;
}
