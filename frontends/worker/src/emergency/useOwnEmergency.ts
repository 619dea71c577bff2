import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { api, useLiveQuery } from '@lws/fe-ui';
import { WORKER_READS } from '@lws/fe-ui/early-reads';

/** The worker's own emergency, as the server tells it (GET /api/users/{id}/emergency). */
export interface OwnEmergency {
  id: string;
  state: 'open' | 'acknowledged' | 'resolved';
  openedAt: string;
  acknowledgedByName: string | null;
  acknowledgedAt: string | null;
  safeAt: string | null;
  /** Each in English, translated on screen; `name`: the person it names ({{name}}). */
  updates: { at: string; text: string; name?: string | null }[];
}

/** While the live stream is down, the screen asks again this often. */
export const OWN_EMERGENCY_REFETCH_MS = 15_000;

function parse(body: unknown): OwnEmergency | null {
  const e = body && typeof body === 'object' ? (body as { emergency?: unknown }).emergency : null;
  if (!e || typeof e !== 'object') return null;
  const v = e as Partial<OwnEmergency>;
  if (typeof v.id !== 'string' || typeof v.openedAt !== 'string' || !Array.isArray(v.updates)) return null;
  return v as OwnEmergency;
}

/**
 * The worker's open emergency, refreshed by every alarm change the live stream reports for them
 * (a monitor taking it, a step of the escalation, its closing). `closed` is set when one that was
 * on screen is gone: a monitor has resolved it.
 */
export function useOwnEmergency(userId: number) {
  const client = useQueryClient();
  // What is on screen stays when a read fails: an emergency is never hidden because a request failed.
  const { data, refetch } = useLiveQuery({
    queryKey: ['own-emergency', userId],
    queryFn: async ({ signal }) => parse(await api.get(WORKER_READS.emergency(userId), { signal })),
    live: { types: ['alarm'], when: (e) => 'userId' in e.data && e.data.userId === userId },
    pollMs: OWN_EMERGENCY_REFETCH_MS,
  });
  const emergency = data ?? null;

  // Noticed in the same render as the emergency going, so the screen never shows neither.
  const [seen, setSeen] = useState<OwnEmergency | null>(null);
  const [closed, setClosed] = useState(false);
  if (emergency !== seen) {
    setSeen(emergency);
    if (seen && !emergency) setClosed(true);
    if (emergency) setClosed(false);
  }

  /** Records the emergency the server just answered (raising one); a read in flight cannot undo it. */
  const set = useCallback(
    (next: OwnEmergency | null) => {
      void client.cancelQueries({ queryKey: ['own-emergency', userId] });
      client.setQueryData(['own-emergency', userId], next);
    },
    [client, userId],
  );
  const reload = useCallback(async () => {
    await refetch();
  }, [refetch]);

  return { emergency, set, reload, closed, dismissClosed: () => setClosed(false) };
}
