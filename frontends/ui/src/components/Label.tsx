import type { LabelHTMLAttributes } from 'react';
import { cx } from './cx';

export function Label({ className, ...rest }: LabelHTMLAttributes<HTMLLabelElement>) {
  // biome-ignore lint/a11y/noLabelWithoutControl: every caller names its control with htmlFor.
  return <label className={cx('lws-label', className)} {...rest} />;
}

export interface FieldErrorProps {
  /** The id the control names in `aria-describedby`. */
  id: string;
  children?: string | null;
  testId?: string;
}

/** A field's validation message; renders nothing when there is none. */
export function FieldError({ id, children, testId }: FieldErrorProps) {
  if (!children) return null;
  return (
    <p id={id} className="lws-field-error" data-testid={testId}>
      {children}
    </p>
  );
}
