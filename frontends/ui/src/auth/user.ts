import { msg } from '../i18n/i18n';

export const ROLES = ['worker', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

/** The signed-in user as the API returns it. `role` is kept as sent so an unknown one can be refused. */
export interface User {
  id: number;
  username: string;
  name: string;
  role: Role | (string & {});
  phone?: string;
  medicalInfo?: string;
  /** Sent by /api/auth/me and with-relations: whether a PIN exists (never the PIN itself). */
  pinSet?: boolean;
  /** True after a superadmin reset the password: the user should choose their own. */
  passwordIsTemporary?: boolean;
  /** A worker who has set a duress PIN. */
  duressPinSet?: boolean;
  /** Signed in at a kiosk: its location, which a shift started there defaults to. */
  kioskLocation?: string;
  /** The language their screens, texts and calls are in ("en", "cy"). */
  language?: string;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Where each role lands after logging in; any other role goes to `/`. */
export function roleHome(role: string | undefined): string {
  switch (role) {
    case 'admin':
      return '/admin';
    case 'superadmin':
      return '/superadmin';
    case 'worker':
      return '/worker';
    default:
      return '/';
  }
}

/** A role's name in English, marked for translation: a screen shows `t(roleLabel(role))`. */
export function roleLabel(role: string): string {
  switch (role) {
    case 'superadmin':
      return msg('Super Admin');
    case 'admin':
      return msg('Admin');
    case 'worker':
      return msg('Worker');
    default:
      return role;
  }
}

/** Checks a user payload from the server; anything malformed is refused rather than half-trusted. */
export function parseUser(value: unknown): User | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const id = typeof v.id === 'string' && /^\d+$/.test(v.id) ? Number(v.id) : v.id;
  if (typeof id !== 'number' || !Number.isFinite(id)) return null;
  if (typeof v.username !== 'string' || typeof v.name !== 'string' || typeof v.role !== 'string') return null;
  return {
    id,
    username: v.username,
    name: v.name,
    role: v.role,
    ...(typeof v.phone === 'string' && v.phone ? { phone: v.phone } : {}),
    ...(typeof v.medicalInfo === 'string' ? { medicalInfo: v.medicalInfo } : {}),
    ...(typeof v.pinSet === 'boolean' ? { pinSet: v.pinSet } : {}),
    ...(typeof v.passwordIsTemporary === 'boolean' ? { passwordIsTemporary: v.passwordIsTemporary } : {}),
    ...(typeof v.duressPinSet === 'boolean' ? { duressPinSet: v.duressPinSet } : {}),
    ...(typeof v.language === 'string' && v.language ? { language: v.language } : {}),
    ...(v.kiosk && typeof v.kiosk === 'object' && typeof (v.kiosk as { location?: unknown }).location === 'string'
      ? { kioskLocation: (v.kiosk as { location: string }).location }
      : {}),
  };
}
