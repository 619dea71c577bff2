import type { ComponentProps } from 'react';
import { cx } from './cx';
import { Spinner } from './Spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'destructive';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Full width, the usual choice on a phone. */
  block?: boolean;
  /** Shows a spinner and blocks further clicks while work is in progress. */
  busy?: boolean;
}

export function Button({
  variant = 'primary',
  size = 'md',
  block = false,
  busy = false,
  type = 'button',
  className,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={cx('lws-btn', `lws-btn--${variant}`, `lws-btn--${size}`, block && 'lws-btn--block', className)}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <Spinner size="sm" decorative /> : null}
      {children}
    </button>
  );
}
