import { useState, type ClipboardEvent, type InputHTMLAttributes } from 'react';
import { cx } from './cx';

export const PIN_LENGTH = 4;

export interface PinInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'maxLength' | 'children'> {
  value: string;
  onChange(value: string): void;
  /** Called once the last box is filled, with the whole PIN. */
  onComplete?(value: string): void;
  length?: number;
  invalid?: boolean;
  /** Shows the digits in the boxes instead of dots (a PIN being set, when its owner asks). */
  reveal?: boolean;
  'data-testid'?: string;
}

function digitsOf(text: string, length: number): string {
  return text.replace(/\D/g, '').slice(0, length);
}

/**
 * A PIN entry shown as one box per digit. Underneath it is a single real input,
 * so a label, screen readers, password managers' "no thanks", autofill and
 * test tools all see one ordinary field; it accepts digits only, ignores input
 * beyond the length, and a paste keeps just the digits, filling from the first box.
 */
export function PinInput({
  value,
  onChange,
  onComplete,
  length = PIN_LENGTH,
  invalid = false,
  reveal = false,
  disabled,
  className,
  onFocus,
  onBlur,
  'data-testid': testId,
  ...rest
}: PinInputProps) {
  const [focused, setFocused] = useState(false);

  const accept = (next: string) => {
    if (next === value) return;
    onChange(next);
    if (next.length === length) onComplete?.(next);
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    accept(digitsOf(event.clipboardData.getData('text'), length));
  };

  return (
    <div
      className={cx('lws-pin-input', focused && 'lws-pin-input--focused', disabled && 'lws-pin-input--disabled', className)}
      data-testid={testId ? `${testId}-boxes` : undefined}
    >
      <div className="lws-pin-boxes" aria-hidden="true">
        {Array.from({ length }, (_, i) => (
          <span
            key={i}
            className={cx(
              'lws-pin-box',
              i < value.length && 'lws-pin-box--filled',
              focused && i === Math.min(value.length, length - 1) && 'lws-pin-box--active',
              invalid && 'lws-pin-box--error',
            )}
            data-filled={i < value.length}
          >
            {i < value.length ? (reveal ? value[i] : '•') : ''}
          </span>
        ))}
      </div>
      <input
        {...rest}
        // React focuses an autoFocus field itself without the attribute; a dialog opening looks for this one.
        data-autofocus={rest.autoFocus ? '' : undefined}
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        autoComplete="off"
        spellCheck={false}
        className="lws-pin-input__field"
        value={value}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        data-testid={testId}
        onChange={(event) => accept(digitsOf(event.target.value, length))}
        onPaste={onPaste}
        onFocus={(event) => {
          setFocused(true);
          // Digits are always added at the end, whatever box was tapped.
          const end = event.target.value.length;
          event.target.setSelectionRange(end, end);
          onFocus?.(event);
        }}
        onBlur={(event) => {
          setFocused(false);
          onBlur?.(event);
        }}
        onSelect={(event) => {
          const input = event.currentTarget;
          const end = input.value.length;
          if (input.selectionStart !== end || input.selectionEnd !== end) input.setSelectionRange(end, end);
        }}
      />
    </div>
  );
}
