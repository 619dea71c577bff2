import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from '@lws/fe-ui';
import { fetchOwnCheckInRequest, type OwnCheckInRequest } from '@lws/fe-ui/shifts';

/** While the live stream is down, the screen asks again this often: a request gives minutes, not hours. */
export const OWN_CHECK_IN_REQUEST_REFETCH_MS = 15_000;

export const ownCheckInRequestKey = (userId: number) => ['own-check-in-request', userId] as const;

/**
 * A monitor's "check in now" still waiting for the worker's check-in, read while on shift. Null
 * when none waits, and also when it could not be read: the request is a nudge, and the check-in
 * screen works the same without it. `answered` drops it as soon as a check-in is accepted.
 */
export function useCheckInRequest(userId: number, { onShift }: { onShift: boolean }) {
  const client = useQueryClient();
  const { data, isError } = useLiveQuery({
    queryKey: ownCheckInRequestKey(userId),
    queryFn: ({ signal }) => fetchOwnCheckInRequest(signal),
    live: { types: ['checkin_request', 'worker'], when: (e) => 'userId' in e.data && e.data.userId === userId },
    pollMs: OWN_CHECK_IN_REQUEST_REFETCH_MS,
    enabled: onShift,
  });

  const answered = useCallback(() => {
    void client.cancelQueries({ queryKey: ownCheckInRequestKey(userId) });
    client.setQueryData<OwnCheckInRequest | null>(ownCheckInRequestKey(userId), null);
    void client.invalidateQueries({ queryKey: ownCheckInRequestKey(userId) });
  }, [client, userId]);

  const request: OwnCheckInRequest | null = onShift && !isError ? (data ?? null) : null;
  return { request, answered };
}
