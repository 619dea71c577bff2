import { Alert, Button, CopyButton, useT } from '@lws/fe-ui';

export interface OneTimeSecretAlertProps {
  /** The warning above the secret, e.g. that it will not be shown again. */
  title: string;
  /** The secret's accessible name. */
  label: string;
  value: string;
  onDone(): void;
  /** `x` names the alert x, and its parts x-secret, x-copy and x-done. */
  testId: string;
}

/**
 * A new token's secret, shown in place on the card that made it, exactly once: the server keeps
 * only its hash, and once Done is pressed nothing here keeps it either.
 */
export function OneTimeSecretAlert({ title, label, value, onDone, testId }: OneTimeSecretAlertProps) {
  const t = useT();
  return (
    <Alert variant="warning" title={title} data-testid={testId}>
      <output className="lws-secret" aria-label={label} data-testid={`${testId}-secret`}>
        {value}
      </output>
      <div className="lws-actions">
        <CopyButton value={value} testId={`${testId}-copy`} />
        <Button size="sm" onClick={onDone} data-testid={`${testId}-done`}>
          {t('Done')}
        </Button>
      </div>
    </Alert>
  );
}
