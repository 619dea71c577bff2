import { useCallback } from 'react';
import { api, msg, useLiveQuery, type useT } from '@lws/fe-ui';
import { parseAccounts, type Account } from '@lws/fe-monitor/accounts';

/** Spec section 9: the simulation times offered, in minutes until the check-in is due; 0.17 is 10 seconds. */
export const SIMULATION_MINUTES = [0.17, 1, 5, 6, 10, 30] as const;
export const DEFAULT_SIMULATION_MINUTES = 0.17;
/** Spec section 9: the location test tools use. */
export const TEST_LOCATION = msg('Test Location');

export function simulationLabel(minutes: number, t: ReturnType<typeof useT>): string {
  if (minutes < 1) return t('{{seconds}} seconds ({{minutes}} min)', { seconds: Math.round(minutes * 60), minutes });
  return minutes === 1 ? t('1 minute') : t('{{minutes}} minutes', { minutes });
}

/** The next check-in an answer names, if any. */
export function nextCheckInOf(body: unknown): string | null {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  if (typeof v?.nextCheckInTime === 'string') return v.nextCheckInTime;
  const user = v?.user && typeof v.user === 'object' ? (v.user as Record<string, unknown>) : null;
  return typeof user?.nextCheckInTime === 'string' ? user.nextCheckInTime : null;
}

export const simulateSpecificTime = (userId: number, minutesUntilDue: number) =>
  api.post(`/api/simulate-specific-time/${userId}`, { minutesUntilDue });
export const resetCheckInTimer = (userId: number) => api.post(`/api/reset-check-in-timer/${userId}`);
export const simulateCheckInDue = (userId: number) => api.post(`/api/simulate-check-in-due/${userId}`);

export type WorkersLoad = { state: 'loading' } | { state: 'error' } | { state: 'ready'; workers: Account[] };

/**
 * The accounts the test tools act on. The spec's tools offered a fixed 'Demo User' (ID 1); there is
 * no such seed here, so they offer the real worker accounts, and say plainly that changes are real.
 */
export function useWorkerAccounts() {
  const query = useLiveQuery({
    queryKey: ['accounts', 'workers', 'test-tools'],
    queryFn: async ({ signal }) => parseAccounts(await api.get('/api/worker-accounts', { signal })).filter((a) => a.role === 'worker'),
    live: { types: ['account'] },
    pollMs: null,
  });
  const load: WorkersLoad = query.data ? { state: 'ready', workers: query.data } : query.error ? { state: 'error' } : { state: 'loading' };
  const { refetch } = query;
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);
  return { load, reload };
}
