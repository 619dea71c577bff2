import { api } from '@lws/fe-ui';
import type { CreateApiTokenRequest } from '@lws/schemas';

/** A row of GET /api/api-tokens: the token itself is shown once, when created. */
export interface ApiToken {
  id: number;
  name: string;
  /** The token's first characters and its last four, to tell it apart from the others. */
  prefix: string;
  last4: string;
  scopes: string[];
  createdBy: number;
  createdByName: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  useCount: number;
  revokedAt: string | null;
}

export type ApiTokenStatus = 'active' | 'revoked' | 'expired';

export const API_TOKENS_KEY = ['api-tokens'] as const;

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const stringOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

function parseApiToken(body: unknown): ApiToken | null {
  const v = record(body);
  if (!v || typeof v.id !== 'number' || typeof v.name !== 'string') return null;
  return {
    id: v.id,
    name: v.name,
    prefix: text(v.prefix),
    last4: text(v.last4),
    scopes: Array.isArray(v.scopes) ? v.scopes.filter((s): s is string => typeof s === 'string') : [],
    createdBy: typeof v.createdBy === 'number' ? v.createdBy : 0,
    createdByName: text(v.createdByName),
    createdAt: text(v.createdAt),
    expiresAt: text(v.expiresAt),
    lastUsedAt: stringOrNull(v.lastUsedAt),
    useCount: typeof v.useCount === 'number' ? v.useCount : 0,
    revokedAt: stringOrNull(v.revokedAt),
  };
}

export function parseApiTokens(body: unknown): ApiToken[] {
  const tokens = record(body)?.tokens;
  if (!Array.isArray(tokens)) throw new Error('Expected a list of API tokens');
  return tokens.flatMap((t) => parseApiToken(t) ?? []);
}

/** POST /api/api-tokens: the new token, and its secret, which the server never gives again. */
export function parseCreatedApiToken(body: unknown): { token: ApiToken; secret: string } {
  const v = record(body);
  const token = parseApiToken(v?.token);
  if (!token || typeof v?.secret !== 'string' || !v.secret) throw new Error('Invalid new API token from the server');
  return { token, secret: v.secret };
}

/** Revoked wins over expired: revoking is what someone did, expiry only what time did. */
export function apiTokenStatus(token: ApiToken, now: Date): ApiTokenStatus {
  if (token.revokedAt) return 'revoked';
  return Date.parse(token.expiresAt) <= now.getTime() ? 'expired' : 'active';
}

export const fetchApiTokens = async ({ signal }: { signal?: AbortSignal }) => parseApiTokens(await api.get('/api/api-tokens', { signal }));

export const createApiToken = async (request: CreateApiTokenRequest) => parseCreatedApiToken(await api.post('/api/api-tokens', request));

export const revokeApiToken = async (id: number) => {
  await api.delete(`/api/api-tokens/${id}`);
};
