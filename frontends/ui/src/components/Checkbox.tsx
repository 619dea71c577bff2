import type { ComponentProps, ReactNode } from 'react';
import { cx } from './cx';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type'> {
  /** The visible label; the whole row is clickable. */
  label: ReactNode;
}

export function Checkbox({ label, className, ...rest }: CheckboxProps) {
  return (
    <label className={cx('lws-checkbox', className)}>
      <input type="checkbox" className="lws-checkbox__input" {...rest} />
      <span className="lws-checkbox__label">{label}</span>
    </label>
  );
}

export interface SwitchProps extends Omit<ComponentProps<'input'>, 'type' | 'role'> {
  label: ReactNode;
}

export function Switch({ label, className, ...rest }: SwitchProps) {
  return (
    <label className={cx('lws-switch', className)}>
      {/* biome-ignore lint/a11y/useAriaPropsForRole: a checkbox input tells its state itself; aria-checked would only repeat it. */}
      <input type="checkbox" role="switch" className="lws-switch__input" {...rest} />
      <span className="lws-switch__track" aria-hidden="true" />
      <span className="lws-switch__label">{label}</span>
    </label>
  );
}
