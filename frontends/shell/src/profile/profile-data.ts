import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@lws/fe-ui';

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

/** A worker's team as their profile shows it (issue 12). */
export interface ProfileTeam {
  name: string;
  monitors: string[];
}

function asTeam(value: unknown): ProfileTeam | null {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  if (!v || typeof v.name !== 'string') return null;
  return { name: v.name, monitors: Array.isArray(v.monitors) ? v.monitors.filter((m): m is string => typeof m === 'string') : [] };
}

export interface ProfileData {
  /** A worker's team; null for admins, or when the server sent none. */
  team: ProfileTeam | null;
  /** An admin away until then (ISO); null when not away. */
  awayUntil: string | null;
  medicalInfo: string;
  pinSet: boolean;
  settings: ContactSettings | null;
  emergencyContacts: EmergencyContact[];
}

export const CHECK_IN_INTERVALS = [30, 50, 60, 120, 240] as const;
export const DEFAULT_CHECK_IN_INTERVAL = 60;

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
    emergencyContacts: contacts.map(asContact).filter((c): c is EmergencyContact => c !== null),
  };
}

export interface ProfileDataState {
  data: ProfileData | null;
  error: Error | null;
  /** Fetches again; rejects when the call fails (the last good data is kept). */
  reload(): Promise<ProfileData>;
}

/** The signed-in user's profile with its relations (contacts, settings, medical information). */
export function useProfileData(userId: number | null): ProfileDataState {
  const [data, setData] = useState<ProfileData | null>(null);
  const [error, setError] = useState<Error | null>(null);
  // Only the newest request may write, so a slow poll cannot undo a fresh save.
  const latest = useRef(0);

  const reload = useCallback(async () => {
    if (userId === null) throw new Error('Not signed in');
    const ticket = ++latest.current;
    try {
      const next = parseProfile(await api.get(`/api/users/${userId}/with-relations`));
      if (ticket === latest.current) {
        setData(next);
        setError(null);
      }
      return next;
    } catch (e) {
      const failure = e instanceof Error ? e : new Error(String(e));
      if (ticket === latest.current) setError(failure);
      throw failure;
    }
  }, [userId]);

  useEffect(() => {
    if (userId === null) return;
    reload().catch((e: unknown) => console.error('Loading the profile failed', e));
  }, [reload, userId]);

  return { data, error, reload };
}
