import { api } from '@lws/fe-ui';

export type SubjectClaim = 'sub' | 'oid';
export type PasswordLogin = 'everyone' | 'break_glass';

export interface GroupTeam {
  group: string;
  teamId: number;
}

/** GET and PUT /api/system/sso: the organisation's single sign-on, as the superadmin sees it. */
export interface SsoSettings {
  enabled: boolean;
  displayName: string;
  issuer: string;
  clientId: string;
  /** The secret itself is never sent back: only whether one is stored. */
  clientSecretSet: boolean;
  subjectClaim: SubjectClaim;
  emailDomains: string[];
  passwordLogin: PasswordLogin;
  jitEnabled: boolean;
  groupsClaim: string;
  groupTeams: GroupTeam[];
  linkByEmail: boolean;
  /** Set by the server's SSO_* variables: read-only here. */
  fromEnvironment: boolean;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

/** PUT /api/system/sso. Without `clientSecret` the stored one is kept. */
export interface SsoSettingsRequest {
  enabled: boolean;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret?: string;
  subjectClaim: SubjectClaim;
  emailDomains: string[];
  passwordLogin: PasswordLogin;
  jitEnabled: boolean;
  groupsClaim: string;
  groupTeams: GroupTeam[];
  linkByEmail: boolean;
}

/** A row of GET /api/system/scim-tokens: the token itself is shown once, when created. */
export interface ScimToken {
  id: number;
  name: string;
  /** The token's first characters, to tell it apart from the others. */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export const SSO_SETTINGS_KEY = ['system', 'sso'] as const;
export const SCIM_TOKENS_KEY = ['system', 'scim-tokens'] as const;
/** The same key and shape as the other screens' lists of team names, so a team's change refreshes it. */
export const TEAM_NAMES_KEY = ['teams', 'names'] as const;

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

export function parseSsoSettings(body: unknown): SsoSettings {
  const v = record(body);
  if (!v || typeof v.enabled !== 'boolean') throw new Error('Invalid sign-in settings from the server');
  return {
    enabled: v.enabled,
    displayName: text(v.displayName),
    issuer: text(v.issuer),
    clientId: text(v.clientId),
    clientSecretSet: v.clientSecretSet === true,
    subjectClaim: v.subjectClaim === 'oid' ? 'oid' : 'sub',
    emailDomains: Array.isArray(v.emailDomains) ? v.emailDomains.filter((d): d is string => typeof d === 'string') : [],
    passwordLogin: v.passwordLogin === 'break_glass' ? 'break_glass' : 'everyone',
    jitEnabled: v.jitEnabled === true,
    groupsClaim: text(v.groupsClaim),
    groupTeams: Array.isArray(v.groupTeams)
      ? v.groupTeams.flatMap((m: unknown) => {
          const r = record(m);
          return r && typeof r.group === 'string' && typeof r.teamId === 'number' ? [{ group: r.group, teamId: r.teamId }] : [];
        })
      : [],
    linkByEmail: v.linkByEmail === true,
    fromEnvironment: v.fromEnvironment === true,
    redirectUri: text(v.redirectUri),
    postLogoutRedirectUri: text(v.postLogoutRedirectUri),
  };
}

function parseScimToken(body: unknown): ScimToken | null {
  const v = record(body);
  if (!v || typeof v.id !== 'number' || typeof v.name !== 'string') return null;
  return {
    id: v.id,
    name: v.name,
    prefix: text(v.prefix),
    createdAt: text(v.createdAt),
    lastUsedAt: stringOrNull(v.lastUsedAt),
    revokedAt: stringOrNull(v.revokedAt),
  };
}

export function parseScimTokens(body: unknown): ScimToken[] {
  const tokens = record(body)?.tokens;
  if (!Array.isArray(tokens)) throw new Error('Expected a list of SCIM tokens');
  return tokens.flatMap((t) => parseScimToken(t) ?? []);
}

/** POST /api/system/scim-tokens: the new token, and its secret, which the server never gives again. */
export function parseCreatedScimToken(body: unknown): { token: ScimToken; secret: string } {
  const v = record(body);
  const token = parseScimToken(v?.token);
  if (!token || typeof v?.secret !== 'string' || !v.secret) throw new Error('Invalid new SCIM token from the server');
  return { token, secret: v.secret };
}

export const fetchSsoSettings = async ({ signal }: { signal?: AbortSignal }) =>
  parseSsoSettings(await api.get('/api/system/sso', { signal }));

export const saveSsoSettings = async (request: SsoSettingsRequest) => parseSsoSettings(await api.put('/api/system/sso', request));

export const fetchScimTokens = async ({ signal }: { signal?: AbortSignal }) =>
  parseScimTokens(await api.get('/api/system/scim-tokens', { signal }));

export const createScimToken = async (name: string) => parseCreatedScimToken(await api.post('/api/system/scim-tokens', { name }));

export const revokeScimToken = async (id: number) => {
  await api.delete(`/api/system/scim-tokens/${id}`);
};

/** GET /api/teams, of which the mappings need only each team's id and name. */
export async function fetchTeamNames({ signal }: { signal?: AbortSignal }): Promise<{ id: number; name: string }[]> {
  const body = await api.get('/api/teams', { signal });
  if (!Array.isArray(body)) throw new Error('Expected a list of teams');
  return body.flatMap((team: unknown) => {
    const v = record(team);
    return v && typeof v.id === 'number' && typeof v.name === 'string' ? [{ id: v.id, name: v.name }] : [];
  });
}
