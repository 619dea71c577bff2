import type { ReactNode } from 'react';
import { Button } from './Button';
import { Dialog } from './Dialog';
import { useT } from '../i18n/i18n';

export interface ConfirmDialogProps {
  open: boolean;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  busyLabel?: string;
  busy?: boolean;
  destructive?: boolean;
  onConfirm(): void;
  onCancel(): void;
  'data-testid'?: string;
}

/** Asks before an action that cannot be taken back; Cancel is the safe default. */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  busyLabel,
  busy = false,
  destructive = false,
  onConfirm,
  onCancel,
  'data-testid': testId,
}: ConfirmDialogProps) {
  const t = useT();
  return (
    <Dialog
      open={open}
      onClose={() => {
        if (!busy) onCancel();
      }}
      title={title}
      description={description}
      data-testid={testId}
      footer={
        <>
          <Button variant="outline" onClick={onCancel} disabled={busy} autoFocus data-testid={testId ? `${testId}-cancel` : undefined}>
            {t('Cancel')}
          </Button>
          <Button
            variant={destructive ? 'destructive' : 'primary'}
            busy={busy}
            onClick={onConfirm}
            data-testid={testId ? `${testId}-confirm` : undefined}
          >
            {busy && busyLabel ? busyLabel : confirmLabel}
          </Button>
        </>
      }
    />
  );
}
