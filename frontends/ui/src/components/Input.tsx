import type { ComponentProps } from 'react';
import { cx } from './cx';

export interface InputProps extends ComponentProps<'input'> {
  invalid?: boolean;
}

export function Input({ className, invalid, ...rest }: InputProps) {
  return <input className={cx('lws-input', className)} aria-invalid={invalid || undefined} {...rest} />;
}

export interface TextareaProps extends ComponentProps<'textarea'> {
  invalid?: boolean;
}

export function Textarea({ className, invalid, ...rest }: TextareaProps) {
  return <textarea className={cx('lws-input', 'lws-textarea', className)} aria-invalid={invalid || undefined} {...rest} />;
}

export interface SelectProps extends ComponentProps<'select'> {
  invalid?: boolean;
}

export function Select({ className, invalid, ...rest }: SelectProps) {
  return <select className={cx('lws-input', 'lws-select', className)} aria-invalid={invalid || undefined} {...rest} />;
}
