import { api, msg } from '@lws/fe-ui';
import { parseShiftState, type ShiftState } from '@lws/fe-ui/shifts';

export interface AccountContact {
  id: number;
  name: string;
  phone: string;
  relation: string;
}

/** Who created an account (the superadmin's view): name and role are null once that account is deleted. */
export interface AccountCreator {
  id: number;
  name: string | null;
  role: string | null;
}

/** A row of GET /api/worker-accounts with its shift. `passwordSet`, `pinSet` and `createdBy` come only to a superadmin; `disabled` only for a deactivated account. */
export interface Account {
  id: number;
  username: string;
  name: string;
  role: string;
  phone?: string;
  /** A worker's team. */
  teamId?: number;
  emergencyContacts: AccountContact[];
  passwordSet?: boolean;
  pinSet?: boolean;
  createdBy?: AccountCreator | null;
  /** Deactivated: signed out and refused every sign-in until reactivated. */
  disabled?: boolean;
  shift: ShiftState;
}

export interface Kiosk {
  id: number;
  name: string;
  location: string;
  enrolledAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CurrentKiosk {
  enrolled: boolean;
  name?: string;
  location?: string;
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function parseCreator(value: unknown): AccountCreator | null {
  const v = record(value);
  if (!v || typeof v.id !== 'number') return null;
  return { id: v.id, name: str(v.name), role: str(v.role) };
}

function parseContact(value: unknown): AccountContact | null {
  const v = record(value);
  if (!v || typeof v.id !== 'number' || typeof v.name !== 'string') return null;
  return { id: v.id, name: v.name, phone: str(v.phone) ?? '', relation: str(v.relation) ?? '' };
}

/** Rows the table cannot show (no id, name or username) are dropped rather than shown half-empty. */
export function parseAccounts(body: unknown): Account[] {
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of worker accounts'));
  const accounts: Account[] = [];
  for (const item of body) {
    const v = record(item);
    if (!v || typeof v.id !== 'number' || typeof v.username !== 'string' || typeof v.name !== 'string') continue;
    accounts.push({
      id: v.id,
      username: v.username,
      name: v.name,
      role: str(v.role) ?? 'worker',
      ...(str(v.phone) ? { phone: str(v.phone)! } : {}),
      ...(typeof v.teamId === 'number' ? { teamId: v.teamId } : {}),
      emergencyContacts: Array.isArray(v.emergencyContacts)
        ? v.emergencyContacts.map(parseContact).filter((c): c is AccountContact => c !== null)
        : [],
      ...(typeof v.passwordSet === 'boolean' ? { passwordSet: v.passwordSet } : {}),
      ...(typeof v.pinSet === 'boolean' ? { pinSet: v.pinSet } : {}),
      ...('createdBy' in v ? { createdBy: parseCreator(v.createdBy) } : {}),
      ...(v.disabled === true ? { disabled: true } : {}),
      shift: parseShiftState(v),
    });
  }
  return accounts;
}

export function parseKiosks(body: unknown): Kiosk[] {
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of kiosks'));
  const kiosks: Kiosk[] = [];
  for (const item of body) {
    const v = record(item);
    if (!v || typeof v.id !== 'number' || typeof v.name !== 'string') continue;
    kiosks.push({
      id: v.id,
      name: v.name,
      location: str(v.location) ?? '',
      enrolledAt: str(v.enrolledAt),
      lastUsedAt: str(v.lastUsedAt),
      revokedAt: str(v.revokedAt),
    });
  }
  return kiosks;
}

export function parseCurrentKiosk(body: unknown): CurrentKiosk {
  const v = record(body);
  return {
    enrolled: v?.enrolled === true,
    ...(str(v?.name) ? { name: str(v?.name)! } : {}),
    ...(str(v?.location) ? { location: str(v?.location)! } : {}),
  };
}

export interface TeamName {
  id: number;
  name: string;
}

/** The teams in the viewer's view (an admin's own; the superadmin's all), by name. */
export async function fetchTeamNames(): Promise<TeamName[]> {
  const body = await api.get('/api/teams');
  if (!Array.isArray(body)) throw new Error(msg('Expected a list of teams'));
  return body.flatMap((t: unknown) => {
    const v = record(t);
    return v && typeof v.id === 'number' && typeof v.name === 'string' ? [{ id: v.id, name: v.name }] : [];
  });
}
