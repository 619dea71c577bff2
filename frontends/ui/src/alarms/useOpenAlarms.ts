import { useLiveQuery } from '../query/live-queries';
import { ALARMS_POLL_MS, fetchOpenAlarms } from './alarms-api';

/** The cache key of the open alarms, for a screen that writes an alarm the server just answered. */
export const OPEN_ALARMS_KEY = ['alarms', 'open'] as const;

/**
 * The open alarms in the monitor's scope: one read shared by the banner on every page and the
 * dashboard's panel. Read afresh on every alarm event and on a worker's emergency (its own alarm
 * event follows, the worker event may come first); polled only while the stream is down.
 */
export function useOpenAlarms({ enabled = true }: { enabled?: boolean } = {}) {
  return useLiveQuery({
    queryKey: OPEN_ALARMS_KEY,
    queryFn: ({ signal }) => fetchOpenAlarms(signal),
    live: { types: ['alarm', 'worker'], when: (e) => e.type === 'alarm' || (e.type === 'worker' && e.data.change === 'emergency') },
    pollMs: ALARMS_POLL_MS,
    enabled,
  });
}
