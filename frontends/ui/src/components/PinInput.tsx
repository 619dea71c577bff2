import { useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import { cx } from './cx';
import { useT } from '../i18n/i18n';

export const PIN_LENGTH = 4;

export interface PinInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type' | 'maxLength' | 'children' | 'onPaste' | 'onKeyDown'> {
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

/** What a masked box shows for a digit. */
export const PIN_MASK = '•';

export function digitsOf(text: string, length: number): string {
  return text.replace(/\D/g, '').slice(0, length);
}

/**
 * Where the PIN's digits go when `typed` arrives in box `index`: a digit replaces the
 * box's own and the next boxes take any more (so clicking the first box and typing the PIN again
 * gives that PIN, never the old digits with the new ones after). A PIN has no gaps: a box past the
 * digits so far types at the end.
 */
export function typeInto(value: string, index: number, typed: string, length: number): string {
  const digits = digitsOf(typed, length);
  if (!digits) return value;
  const at = Math.min(index, value.length);
  return (value.slice(0, at) + digits + value.slice(at + digits.length)).slice(0, length);
}

/** Backspace in box `index`: its digit goes (those after move up); in an empty box, the one before. */
export function eraseAt(value: string, index: number): { value: string; focus: number } {
  if (index < value.length) return { value: value.slice(0, index) + value.slice(index + 1), focus: index };
  if (value.length === 0) return { value, focus: 0 };
  return { value: value.slice(0, -1), focus: value.length - 1 };
}

/**
 * A PIN entry as one real input per digit: typing fills a box and moves to the next,
 * backspace goes back, a paste in any box fills them all from the first, arrows move between boxes.
 * The first box carries the field's id (its label), data-testid and autofocus, so "fill" on the
 * labelled field still enters a whole PIN. Every box opens the phone's number pad and refuses
 * anything but digits; the browser never offers to remember or autofill it.
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
  id,
  autoFocus,
  'data-testid': testId,
  'aria-describedby': describedBy,
  'aria-label': ariaLabel,
  ...rest
}: PinInputProps) {
  const t = useT();
  const boxes = useRef<(HTMLInputElement | null)[]>([]);
  const [focused, setFocused] = useState<number | null>(null);

  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(index, length - 1))];
    box?.focus();
    box?.select();
  };

  // Where focus goes once the new PIN is on screen: moving it before would let the next box see
  // the old PIN (and send focus back as if it were past the digits).
  const pendingFocus = useRef<number | null>(null);

  const accept = (next: string, focus: number) => {
    if (next === value) {
      focusBox(focus);
      return;
    }
    pendingFocus.current = focus;
    onChange(next);
    if (next.length === length) onComplete?.(next);
  };

  useLayoutEffect(() => {
    if (pendingFocus.current === null) return;
    const target = pendingFocus.current;
    pendingFocus.current = null;
    focusBox(target);
  });

  // The PIN was cleared or shortened from outside (a refused attempt): focus follows the digits.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the PIN changes, not when focus moves.
  useEffect(() => {
    if (focused !== null && focused > value.length) focusBox(value.length);
  }, [value]);

  const onBoxChange = (index: number, raw: string) => {
    // A masked box holds the mask; only what was typed besides it counts.
    let typed = digitsOf(raw.split(PIN_MASK).join(''), length);
    if (!typed) {
      // The box was emptied without a Backspace key event (some phone keyboards send none).
      if (raw === '' && index < value.length) accept(value.slice(0, index) + value.slice(index + 1), index);
      return;
    }
    // A digit typed beside the one a revealed box shows (the caret was not on it): the new one counts.
    const current = value[index];
    if (current !== undefined && raw.length === 2 && typed.length === 2 && typed.includes(current))
      typed = typed[0] === current ? typed[1] : typed[0];
    accept(typeInto(value, index, typed, length), Math.min(index, value.length) + typed.length);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace') {
      event.preventDefault();
      const erased = eraseAt(value, index);
      accept(erased.value, erased.focus);
    } else if (event.key === 'Delete') {
      event.preventDefault();
      if (index < value.length) accept(value.slice(0, index) + value.slice(index + 1), index);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(Math.min(index + 1, value.length));
    } else if (event.key === 'Home') {
      event.preventDefault();
      focusBox(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      focusBox(value.length);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = digitsOf(event.clipboardData.getData('text'), length);
    if (pasted) accept(pasted, pasted.length);
  };

  return (
    <div
      className={cx('lws-pin-input', focused !== null && 'lws-pin-input--focused', disabled && 'lws-pin-input--disabled', className)}
      role="group"
      aria-label={ariaLabel}
      data-testid={testId ? `${testId}-boxes` : undefined}
      data-value-length={value.length}
    >
      {Array.from({ length }, (_, i) => {
        const digit = i < value.length ? value[i] : '';
        return (
          <input
            // biome-ignore lint/suspicious/noArrayIndexKey: a box stands for a digit position, and the row never reorders.
            key={i}
            {...rest}
            ref={(el) => {
              boxes.current[i] = el;
            }}
            id={i === 0 ? id : undefined}
            // React focuses an autoFocus field itself without the attribute; a dialog opening looks for this one.
            // biome-ignore lint/a11y/noAutofocus: a PIN dialog is opened to type the PIN: its first box takes the focus.
            autoFocus={i === 0 ? autoFocus : undefined}
            data-autofocus={i === 0 && autoFocus ? '' : undefined}
            aria-label={i === 0 ? undefined : t('Digit {{position}} of {{length}}', { position: i + 1, length })}
            aria-describedby={describedBy}
            type="text"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="off"
            spellCheck={false}
            className={cx(
              'lws-pin-box',
              digit && 'lws-pin-box--filled',
              focused === i && 'lws-pin-box--active',
              invalid && 'lws-pin-box--error',
            )}
            value={digit ? (reveal ? digit : PIN_MASK) : ''}
            disabled={disabled}
            aria-invalid={invalid || undefined}
            data-testid={i === 0 ? testId : testId ? `${testId}-${i + 1}` : undefined}
            data-filled={Boolean(digit)}
            onChange={(event) => onBoxChange(i, event.target.value)}
            onKeyDown={(event) => onKeyDown(i, event)}
            onPaste={onPaste}
            onFocus={(event) => {
              // A PIN has no gaps: a box past the digits so far hands focus to the first empty one.
              if (i > value.length) {
                focusBox(value.length);
                return;
              }
              setFocused(i);
              event.target.select();
              onFocus?.(event);
            }}
            onBlur={(event) => {
              setFocused((f) => (f === i ? null : f));
              onBlur?.(event);
            }}
          />
        );
      })}
    </div>
  );
}
