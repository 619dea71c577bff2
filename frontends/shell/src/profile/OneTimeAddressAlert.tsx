import { useId, useState } from 'react';
import { Alert, Button, Input, Label, useT } from '@lws/fe-ui';

export interface OneTimeAddressAlertProps {
  /** The warning above the address, e.g. that it will not be shown again. */
  title: string;
  /** The address field's label. */
  label: string;
  /** What to do with the address, and who else could use it. */
  note: string;
  value: string;
  onDone(): void;
  /** `x` names the alert x, and its parts x-input, x-copy and x-done. */
  testId: string;
}

/**
 * A secret address, shown in place on the card that made it, exactly once: in a read-only field
 * to select or copy. Once Done is pressed nothing here keeps it. (As the monitors'
 * OneTimeSecretAlert, which an app may not import from another.)
 */
export function OneTimeAddressAlert({ title, label, note, value, onDone, testId }: OneTimeAddressAlertProps) {
  const t = useT();
  const inputId = useId();
  const noteId = useId();
  // Which address was copied, so a newer one shown here starts as not copied.
  const [copied, setCopied] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(value);
    } catch {
      setCopied(null);
    }
  };
  return (
    <Alert variant="warning" title={title} data-testid={testId}>
      <Label htmlFor={inputId}>{label}</Label>
      <div className="lws-inline-form">
        <Input
          id={inputId}
          readOnly
          value={value}
          aria-describedby={noteId}
          onFocus={(event) => event.currentTarget.select()}
          data-testid={`${testId}-input`}
        />
        {typeof navigator !== 'undefined' && navigator.clipboard ? (
          <Button variant="outline" size="sm" onClick={() => void copy()} data-testid={`${testId}-copy`}>
            {copied === value ? t('Copied') : t('Copy')}
          </Button>
        ) : null}
      </div>
      <p id={noteId}>{note}</p>
      <div className="lws-actions">
        <Button size="sm" onClick={onDone} data-testid={`${testId}-done`}>
          {t('Done')}
        </Button>
      </div>
    </Alert>
  );
}
