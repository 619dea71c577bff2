import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** How long a notification stays on screen by itself. */
export const TOAST_LIFETIME_MS = 5000;

/** `warning` and `error` only change the colour; anything else is shown as info. */
export type ToastType = 'info' | 'warning' | 'error' | (string & {});

export interface ToastInput {
  title: string;
  message?: string;
  type?: ToastType;
}

export interface Toast extends ToastInput {
  id: number;
}

export interface ToastContextValue {
  toasts: readonly Toast[];
  toast(input: ToastInput): number;
  dismiss(id: number): void;
}

const ToastContext = createContext<ToastContextValue | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  useEffect(() => {
    const pending = timers.current;
    return () => {
      pending.forEach(clearTimeout);
      pending.clear();
    };
  }, []);

  const shown = useRef<readonly Toast[]>([]);
  shown.current = toasts;

  const toast = useCallback((input: ToastInput) => {
    // The same news twice (a frightened double press of the emergency button) is one toast: a
    // second would only stack over what the screen says.
    const same = shown.current.find(
      (t) => t.title === input.title && t.message === input.message && (t.type ?? 'info') === (input.type ?? 'info'),
    );
    if (same) return same.id;
    const id = nextId.current++;
    const added = { ...input, id };
    shown.current = [...shown.current, added];
    setToasts((current) => [...current, added]);
    // Each timeout drops the oldest notification still shown, not necessarily
    // the one that scheduled it: the stack drains from the top, one per timeout.
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setToasts((current) => current.slice(1));
      shown.current = shown.current.slice(1);
    }, TOAST_LIFETIME_MS);
    timers.current.add(timer);
    return id;
  }, []);

  const dismiss = useCallback((id: number) => {
    setToasts((current) => current.filter((t) => t.id !== id));
    shown.current = shown.current.filter((t) => t.id !== id);
  }, []);

  const value = useMemo(() => ({ toasts, toast, dismiss }), [toasts, toast, dismiss]);
  return <ToastContext.Provider value={value}>{children}</ToastContext.Provider>;
}

export function useToast(): ToastContextValue {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToast must be used inside <ToastProvider>');
  return value;
}
