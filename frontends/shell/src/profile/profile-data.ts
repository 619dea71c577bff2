import { useCallback } from 'react';
import { api, useLiveQuery } from '@lws/fe-ui';
import { DEFAULT_CHECK_IN_INTERVAL } from '@lws/schemas';

export interface EmergencyContact {
  id: number;
  userId: number;
  name: string;
  phone: string;
  relation: string;
}

export interface ContactSettings {
  userId: number;
  primaryContact: string;
  secondaryContact: string | null;
  checkInInterval: number;
}

/** A worker's team as their profile shows it. */
export interface ProfileTeam {
  name: string;
  monitors: string[];
  /** The check-in intervals the team allows; null or absent when the server sent none (every interval). */
  allowedIntervals?: number[] | null;
}

function asTeam(value: unknown): ProfileTeam | null {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  if (!v || typeof v.name !== 'string') return null;
  const policy = v.checkInPolicy && typeof v.checkInPolicy === 'object' ? (v.checkInPolicy as Record<string, unknown>) : null;
  const allowed = Array.isArray(policy?.allowedIntervals) ? policy.allowedIntervals.filter((m): m is number => typeof m === 'number') : [];
  return {
    name: v.name,
    monitors: Array.isArray(v.monitors) ? v.monitors.filter((m): m is string => typeof m === 'string') : [],
    allowedIntervals: allowed.length > 0 ? allowed : null,
  };
}

export interface ProfileData {
  /** A worker's team; null for admins, or when the server sent none. */
  team: ProfileTeam | null;
  /** An admin away until then (ISO); null when not away. */
  awayUntil: string | null;
  medicalInfo: string;
  pinSet: boolean;
  settings: ContactSettings | null;
  /** The check-in interval that applies: the settings' own, else the team's default. */
  checkInInterval: number;
  emergencyContacts: EmergencyContact[];
}

function asContact(value: unknown): EmergencyContact | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'number' || typeof v.name !== 'string' || typeof v.phone !== 'string') return null;
  return {
    id: v.id,
    userId: typeof v.userId === 'number' ? v.userId : 0,
    name: v.name,
    phone: v.phone,
    relation: typeof v.relation === 'string' ? v.relation : '',
  };
}

function asSettings(value: unknown): ContactSettings | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v.primaryContact !== 'string') return null;
  const interval = Number(v.checkInInterval);
  return {
    userId: typeof v.userId === 'number' ? v.userId : 0,
    primaryContact: v.primaryContact,
    secondaryContact: typeof v.secondaryContact === 'string' ? v.secondaryContact : null,
    checkInInterval: Number.isFinite(interval) ? interval : DEFAULT_CHECK_IN_INTERVAL,
  };
}

export function parseProfile(body: unknown): ProfileData {
  const v = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const contacts = Array.isArray(v.emergencyContacts) ? v.emergencyContacts : [];
  return {
    team: asTeam(v.team),
    awayUntil: typeof v.awayUntil === 'string' && Date.parse(v.awayUntil) > Date.now() ? v.awayUntil : null,
    medicalInfo: typeof v.medicalInfo === 'string' ? v.medicalInfo : '',
    pinSet: v.pinSet === true,
    settings: asSettings(v.settings),
    checkInInterval: typeof v.checkInInterval === 'number' && v.checkInInterval > 0 ? v.checkInInterval : DEFAULT_CHECK_IN_INTERVAL,
    emergencyContacts: contacts.map(asContact).filter((c): c is EmergencyContact => c !== null),
  };
}

export interface ProfileDataState {
  data: ProfileData | null;
  error: Error | null;
  /** Fetches again; rejects when the call fails (the last good data is kept). */
  reload(): Promise<ProfileData>;
}

/**
 * The signed-in user's profile with its relations (contacts, settings, medical information), read
 * afresh on each change to their account and every `pollMs` while the stream is down. While
 * `paused` (a contact open for editing, spec section 7) nothing moves under the user's hands; it
 * is read once when editing ends.
 */
export function useProfileData(userId: number | null, { paused = false, pollMs }: { paused?: boolean; pollMs: number }): ProfileDataState {
  const query = useLiveQuery({
    queryKey: ['profile', userId],
    queryFn: async ({ signal }) => parseProfile(await api.get(`/api/users/${userId}/with-relations`, { signal })),
    live: { types: ['account'], when: (e) => e.type === 'account' && e.data.userId === userId },
    pollMs,
    enabled: userId !== null && !paused,
  });
  const { refetch } = query;
  const reload = useCallback(async () => {
    if (userId === null) throw new Error('Not signed in');
    const r = await refetch();
    if (r.error || !r.data) throw r.error ?? new Error('The profile could not be read');
    return r.data;
  }, [refetch, userId]);
  return { data: query.data ?? null, error: query.error, reload };
}
