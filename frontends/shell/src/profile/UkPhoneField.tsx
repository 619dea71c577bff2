import { useId } from 'react';
import { FieldError, Input, Label, cx, normaliseUkPhone, normaliseUkPhoneWhileTyping, ukPhoneHint, useT } from '@lws/fe-ui';

export interface UkPhoneFieldProps {
  /** Already in the user's language. */
  label: string;
  value: string;
  onChange(value: string): void;
  /** In English (the schema's or the server's words): shown through t(). */
  error?: string;
  testId: string;
}

/** A phone field that turns what is typed into +44 form as it goes and says at once whether it fits. */
export function UkPhoneField({ label, value, onChange, error, testId }: UkPhoneFieldProps) {
  const t = useT();
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const hint = ukPhoneHint(value);
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="lws-field">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        value={value}
        onChange={(e) => onChange(normaliseUkPhoneWhileTyping(e.target.value))}
        onBlur={() => onChange(normaliseUkPhone(value))}
        invalid={Boolean(error)}
        aria-describedby={describedBy}
        data-testid={testId}
      />
      {hint ? (
        <p id={hintId} className={cx('lws-field-hint', `lws-field-hint--${hint.tone}`)} data-testid={`${testId}-hint`}>
          {t(hint.text)}
        </p>
      ) : null}
      <FieldError id={errorId} testId={`${testId}-error`}>
        {error && t(error)}
      </FieldError>
    </div>
  );
}
