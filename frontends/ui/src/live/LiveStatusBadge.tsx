import { Badge } from '../components/Badge';
import { useLiveState } from './LiveEventsContext';

/**
 * Tells a monitor whether the screen follows changes as they happen or falls back to refreshing
 * on a timer (the stream is down): they should know how fresh what they read is.
 */
export function LiveStatusBadge() {
  const state = useLiveState();
  const live = state === 'open';
  return (
    <Badge
      variant={live ? 'success' : 'warning'}
      data-testid="live-status"
      data-state={state}
      title={live ? 'Changes appear as they happen' : 'Live updates are reconnecting; the screen refreshes on a timer meanwhile'}
    >
      {live ? 'Live' : state === 'connecting' ? 'Connecting...' : 'Reconnecting...'}
    </Badge>
  );
}
