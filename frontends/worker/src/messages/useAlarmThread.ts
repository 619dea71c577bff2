import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLiveQuery } from '@lws/fe-ui';
import { fetchAlarmThread, type AlarmThread } from '@lws/fe-ui/alarms';

/** While the live stream is down, the screen asks again this often: a monitor may be waiting for an answer. */
export const ALARM_THREAD_REFETCH_MS = 15_000;

export const alarmThreadKey = (userId: number) => ['own-alarm-thread', userId] as const;

/**
 * The messages of the worker's open alarm: read again whenever either side writes (the alarm's
 * frame) and on every change of the worker's shift. Null when there is no thread, and also when it
 * could not be read before: the check-in and emergency screens work the same without it. A thread
 * once read stays on screen when a later read fails.
 */
export function useAlarmThread(userId: number) {
  const client = useQueryClient();
  const { data } = useLiveQuery({
    queryKey: alarmThreadKey(userId),
    queryFn: ({ signal }) => fetchAlarmThread(signal),
    live: { types: ['alarm', 'worker'], when: (e) => 'userId' in e.data && e.data.userId === userId },
    pollMs: ALARM_THREAD_REFETCH_MS,
  });

  /** Records the thread the server just answered (a reply, a seen); a read in flight cannot undo it. */
  const set = useCallback(
    (thread: AlarmThread | null) => {
      void client.cancelQueries({ queryKey: alarmThreadKey(userId) });
      client.setQueryData(alarmThreadKey(userId), thread);
    },
    [client, userId],
  );
  const reload = useCallback(() => client.invalidateQueries({ queryKey: alarmThreadKey(userId) }), [client, userId]);

  return { thread: data ?? null, set, reload };
}
