import type { HTMLAttributes, ReactNode } from 'react';
import { cx } from './cx';

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  variant?: 'info' | 'warning' | 'error' | 'success';
  title?: ReactNode;
}

export function Alert({ variant = 'info', title, className, children, ...rest }: AlertProps) {
  return (
    <div
      role={variant === 'error' || variant === 'warning' ? 'alert' : 'status'}
      className={cx('lws-alert', `lws-alert--${variant}`, className)}
      {...rest}
    >
      {title ? <p className="lws-alert__title">{title}</p> : null}
      {children ? <div className="lws-alert__body">{children}</div> : null}
    </div>
  );
}
