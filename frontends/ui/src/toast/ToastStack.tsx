import { useToast, type Toast } from './ToastContext';

function variantOf(type: Toast['type']): 'warning' | 'error' | 'info' {
  if (type === 'warning') return 'warning';
  if (type === 'error') return 'error';
  return 'info';
}

/** The notification stack; render it once, in the shell. */
export function ToastStack() {
  const { toasts, dismiss } = useToast();
  return (
    <section className="lws-toast-stack" aria-label="Notifications" data-testid="toast-stack">
      <ol aria-live="polite" aria-relevant="additions">
        {toasts.map((t) => {
          const variant = variantOf(t.type);
          return (
            <li
              key={t.id}
              className={`lws-toast lws-toast--${variant}`}
              role={variant === 'error' ? 'alert' : 'status'}
              data-testid="toast"
              data-type={variant}
            >
              <div className="lws-toast__body">
                <p className="lws-toast__title">{t.title}</p>
                {t.message ? <p className="lws-toast__message">{t.message}</p> : null}
              </div>
              <button
                type="button"
                className="lws-toast__close"
                aria-label="Close notification"
                onClick={() => dismiss(t.id)}
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
