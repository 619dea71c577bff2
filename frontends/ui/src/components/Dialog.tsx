import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from './cx';
import { useT } from '../i18n/i18n';

export interface DialogProps {
  open: boolean;
  /** Called on Escape, on the close button and on a click on the backdrop. */
  onClose(): void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Hides the × button, for steps the user must answer. */
  hideClose?: boolean;
  /**
   * False ignores Escape and clicks on the backdrop, so that only the dialog's own
   * buttons close it (e.g. a value shown once must not vanish on a stray click).
   */
  dismissible?: boolean;
  className?: string;
  'data-testid'?: string;
}

/**
 * A modal built on the native <dialog>: the browser traps focus, makes the
 * page behind inert and restores focus on close.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  hideClose = false,
  dismissible = true,
  className,
  'data-testid': testId,
}: DialogProps) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first control (the ×): a field marked to take focus gets it, so a
      // PIN typed at once lands in the PIN field and a phone opens its number pad.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes it; the keyboard's Escape does so through onCancel.
    <dialog
      ref={ref}
      className={cx('lws-dialog', className)}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      data-testid={testId}
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onClick={(event) => {
        if (dismissible && event.target === ref.current) onClose();
      }}
    >
      {open ? (
        <div className="lws-dialog__panel">
          <div className="lws-dialog__header">
            <h2 id={titleId} className="lws-dialog__title">
              {title}
            </h2>
            {hideClose ? null : (
              <button type="button" className="lws-dialog__close" aria-label={t('Close')} onClick={onClose}>
                <span aria-hidden="true">×</span>
              </button>
            )}
          </div>
          {description ? (
            <p id={descriptionId} className="lws-dialog__description">
              {description}
            </p>
          ) : null}
          {children ? <div className="lws-dialog__body">{children}</div> : null}
          {footer ? <div className="lws-dialog__footer">{footer}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
