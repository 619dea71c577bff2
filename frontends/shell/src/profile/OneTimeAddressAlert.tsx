import { useId } from 'react';
import { Alert, Button, CopyButton, Input, Label, useT } from '@lws/fe-ui';

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
        <CopyButton value={value} testId={`${testId}-copy`} />
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
