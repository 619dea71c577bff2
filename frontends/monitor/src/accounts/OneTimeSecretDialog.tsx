import { useState } from 'react';
import { Alert, Button, Dialog, useT } from '@lws/fe-ui';

export interface OneTimeSecret {
  title: string;
  /** Who it belongs to, for the warning text. */
  owner: string;
  value: string;
}

/**
 * Shows a new PIN or temporary password exactly once. The server never sends
 * it again and nothing keeps it: once this dialog closes it is gone.
 */
export function OneTimeSecretDialog({ secret, onClose }: { secret: OneTimeSecret | null; onClose(): void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <Dialog
      open={secret !== null}
      onClose={close}
      title={secret?.title ?? ''}
      hideClose
      dismissible={false}
      data-testid="one-time-secret-dialog"
    >
      {secret ? (
        <div className="lws-form">
          <Alert variant="warning" title={t('Shown once')} data-testid="one-time-secret-warning">
            {t('Give this to {{name}} now. It will not be shown again: once you close this window it cannot be recovered, only reset.', {
              name: secret.owner,
            })}
          </Alert>
          <output className="lws-secret" aria-label={secret.title} data-testid="one-time-secret-value">
            {secret.value}
          </output>
          <div className="lws-dialog__footer">
            {typeof navigator !== 'undefined' && navigator.clipboard ? (
              <Button variant="outline" onClick={() => void copy()} data-testid="one-time-secret-copy">
                {copied ? t('Copied') : t('Copy')}
              </Button>
            ) : null}
            <Button onClick={close} data-testid="one-time-secret-done">
              {t('Done')}
            </Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
