import { Badge } from '../components/Badge';
import { useT } from '../i18n/i18n';
import { useLiveState } from './LiveEventsContext';

/**
 * Tells a monitor whether the screen follows changes as they happen or falls back to refreshing
 * on a timer (the stream is down): they should know how fresh what they read is.
 */
export function LiveStatusBadge() {
  const state = useLiveState();
  const t = useT();
  const live = state === 'open';
  return (
    <Badge
      variant={live ? 'success' : 'warning'}
      data-testid="live-status"
      data-state={state}
      title={live ? t('Changes appear as they happen') : t('Live updates are reconnecting; the screen refreshes on a timer meanwhile')}
    >
      {live ? t('Live') : state === 'connecting' ? t('Connecting...') : t('Reconnecting...')}
    </Badge>
  );
}
