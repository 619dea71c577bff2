import { useCallback, useEffect, useState } from 'react';
import { api, useLiveRefresh } from '@lws/fe-ui';

/** Issue 13: the worker's own emergency, as the server tells it (GET /api/users/{id}/emergency). */
export interface OwnEmergency {
  id: string;
  state: 'open' | 'acknowledged' | 'resolved';
  openedAt: string;
  acknowledgedByName: string | null;
  acknowledgedAt: string | null;
  safeAt: string | null;
  updates: { at: string; text: string }[];
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
  const [emergency, setEmergency] = useState<OwnEmergency | null>(null);
  const [closed, setClosed] = useState(false);

  const reload = useCallback(async () => {
    try {
      const next = parse(await api.get(`/api/users/${userId}/emergency`));
      setEmergency((current) => {
        if (current && !next) setClosed(true);
        if (next) setClosed(false);
        return next;
      });
    } catch (e) {
      // What is on screen stays: an emergency is never hidden because a request failed.
      console.error('Loading your emergency failed', e);
    }
  }, [userId]);

  useEffect(() => {
    void reload();
  }, [reload]);
  useLiveRefresh(reload, { types: ['alarm'], when: (e) => 'userId' in e.data && e.data.userId === userId, pollMs: OWN_EMERGENCY_REFETCH_MS });

  return { emergency, set: setEmergency, reload, closed, dismissClosed: () => setClosed(false) };
}
