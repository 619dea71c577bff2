import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, type Clock, type Db } from '@lws/platform';
import { scimTokens, users, type ScimTokenRow } from '../db/schema';
import type { ScimClient } from './scim-context';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];

/** What every token starts with, so a secret scanner (and a person) recognises one. */
export const SCIM_TOKEN_PREFIX = 'lws_scim_';
/** How much of the token the superadmin sees, to tell tokens apart. */
const SHOWN = 12;
/** lastUsedAt is written at most this often: a sync sends thousands of requests. */
const LAST_USED_EVERY_MS = 60_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function view(row: ScimTokenRow): Reply<'identity.scim_token.list.v1'>['tokens'][number] {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    ...(row.revokedAt ? { revokedAt: row.revokedAt.toISOString() } : {}),
  };
}

/** The provisioning clients' bearer tokens: created and revoked by the superadmin, kept as their SHA-256. */
@Injectable()
export class ScimTokensService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async list(): Promise<Reply<'identity.scim_token.list.v1'>> {
    const rows = await this.db.select().from(scimTokens).orderBy(asc(scimTokens.id));
    return { tokens: rows.map(view) };
  }

  /** A new token: 32 random bytes, shown in this reply and never again. */
  async create(name: string, actorId: number): Promise<Reply<'identity.scim_token.create.v1'>> {
    await this.superadmin(actorId);
    const secret = `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [row] = await this.db
      .insert(scimTokens)
      .values({
        name: name.trim(),
        prefix: secret.slice(0, SHOWN),
        tokenHash: hashToken(secret),
        createdBy: actorId,
        createdAt: this.clock(),
      })
      .returning();
    return { token: view(row), secret };
  }

  async revoke(id: number, actorId: number): Promise<Reply<'identity.scim_token.revoke.v1'>> {
    await this.superadmin(actorId);
    const [row] = await this.db.select({ id: scimTokens.id }).from(scimTokens).where(eq(scimTokens.id, id));
    if (!row) throw new RpcError(404, 'Token not found', { field: 'id' });
    await this.db
      .update(scimTokens)
      .set({ revokedAt: this.clock() })
      .where(and(eq(scimTokens.id, id), isNull(scimTokens.revokedAt)));
    return { ok: true };
  }

  /** The client a bearer token belongs to; undefined for an unknown or revoked one. */
  async authenticate(token: string): Promise<ScimClient | undefined> {
    const [row] = await this.db
      .select({ id: scimTokens.id, name: scimTokens.name, createdBy: scimTokens.createdBy })
      .from(scimTokens)
      .where(and(eq(scimTokens.tokenHash, hashToken(token)), isNull(scimTokens.revokedAt)));
    if (!row) return undefined;
    const now = this.clock();
    await this.db
      .update(scimTokens)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(scimTokens.id, row.id),
          or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_EVERY_MS))),
        ),
      );
    return row;
  }

  /** Only a superadmin manages tokens (the gateway checks the role; this checks the account still holds it). */
  private async superadmin(actorId: number): Promise<void> {
    const [actor] = await this.db.select({ role: users.role }).from(users).where(eq(users.id, actorId));
    if (actor?.role !== 'superadmin') throw new RpcError(403, 'Not allowed for your role');
  }
}
