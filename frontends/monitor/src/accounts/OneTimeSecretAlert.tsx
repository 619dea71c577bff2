import { useState } from 'react';
import { Alert, Button, useT } from '@lws/fe-ui';

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
  // Which secret was copied, so a newer one shown here starts as not copied.
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
      <output className="lws-secret" aria-label={label} data-testid={`${testId}-secret`}>
        {value}
      </output>
      <div className="lws-actions">
        {typeof navigator !== 'undefined' && navigator.clipboard ? (
          <Button variant="outline" size="sm" onClick={() => void copy()} data-testid={`${testId}-copy`}>
            {copied === value ? t('Copied') : t('Copy')}
          </Button>
        ) : null}
        <Button size="sm" onClick={onDone} data-testid={`${testId}-done`}>
          {t('Done')}
        </Button>
      </div>
    </Alert>
  );
}
