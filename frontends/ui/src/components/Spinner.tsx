import { cx } from './cx';
import { useT } from '../i18n/i18n';

export interface SpinnerProps {
  size?: 'sm' | 'md' | 'lg';
  /** What is loading, for screen readers. */
  label?: string;
  /** Inside something that already says it is busy (e.g. a busy button). */
  decorative?: boolean;
  className?: string;
}

export function Spinner({ size = 'md', label, decorative = false, className }: SpinnerProps) {
  const t = useT();
  if (decorative) return <span className={cx('lws-spinner', `lws-spinner--${size}`, className)} aria-hidden="true" />;
  return (
    <span role="status" className={cx('lws-spinner-wrap', className)}>
      <span className={cx('lws-spinner', `lws-spinner--${size}`)} aria-hidden="true" />
      <span className="lws-visually-hidden">{label ?? t('Loading')}</span>
    </span>
  );
}
