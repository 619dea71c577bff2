import { useT } from '../i18n/i18n';
import { useToast, type Toast } from './ToastContext';

function variantOf(type: Toast['type']): 'warning' | 'error' | 'info' {
  if (type === 'warning') return 'warning';
  if (type === 'error') return 'error';
  return 'info';
}

/**
 * The notification stack; render it once, in the shell. Each toast's live role (status, or alert
 * for an error) is on its content, never on the list item: an item with another role is no longer
 * an item, and the list would hold none (axe: list).
 */
export function ToastStack() {
  const { toasts, dismiss } = useToast();
  const t = useT();
  return (
    <section className="lws-toast-stack" aria-label={t('Notifications')} data-testid="toast-stack">
      <ol aria-live="polite" aria-relevant="additions">
        {toasts.map((item) => {
          const variant = variantOf(item.type);
          return (
            <li key={item.id} className={`lws-toast lws-toast--${variant}`} data-testid="toast" data-type={variant}>
              <div className="lws-toast__body" role={variant === 'error' ? 'alert' : 'status'}>
                <p className="lws-toast__title">{item.title}</p>
                {item.message ? <p className="lws-toast__message">{item.message}</p> : null}
              </div>
              <button type="button" className="lws-toast__close" aria-label={t('Close notification')} onClick={() => dismiss(item.id)}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
