import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, UnitOfWork, type Clock, type Db } from '@lws/platform';
import { apiTokens, users, type ApiTokenRow } from '../db/schema';
import { hashToken } from '../scim/scim-tokens.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];
type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type TokenView = Reply<'identity.api_token.list.v1'>['tokens'][number];
type Scope = TokenView['scopes'][number];

/** What every token starts with, so a secret scanner (and a person) recognises one. */
export const API_TOKEN_PREFIX = 'lws_api_';
/** How much of the token's start the screens show. */
const SHOWN = 14;
const DAY_MS = 86_400_000;

function view(row: ApiTokenRow, creatorName: string | null): TokenView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes as Scope[],
    createdBy: row.createdBy,
    createdByName: creatorName ?? '',
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt.toISOString() } : {}),
    useCount: row.useCount,
    ...(row.revokedAt ? { revokedAt: row.revokedAt.toISOString() } : {}),
  };
}

/**
 * Machines' API tokens. A token is its creator's delegate: it acts as them, within the teams they
 * hold at each request, on the routes its scopes name. So a token can never see more than the
 * person who made it, and loses everything they lose (deactivation, deletion, demotion) at once.
 */
@Injectable()
export class ApiTokensService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The superadmin sees every token, an admin their own; newest last, as they were made. */
  async list(actorId: number): Promise<Reply<'identity.api_token.list.v1'>> {
    const actor = await this.manager(actorId);
    const rows = await this.db
      .select({ token: apiTokens, creatorName: users.name })
      .from(apiTokens)
      .leftJoin(users, eq(users.id, apiTokens.createdBy))
      .where(actor.role === 'superadmin' ? undefined : eq(apiTokens.createdBy, actorId))
      .orderBy(asc(apiTokens.id));
    return { tokens: rows.map((r) => view(r.token, r.creatorName)) };
  }

  /** A new token: 32 random bytes, in this reply and never again. */
  create(req: Req<'identity.api_token.create.v1'>): Promise<Reply<'identity.api_token.create.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const actor = await this.manager(req.actorId, tx);
      const secret = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
      const now = this.clock();
      const [row] = await tx
        .insert(apiTokens)
        .values({
          name: req.name.trim(),
          prefix: secret.slice(0, SHOWN),
          last4: secret.slice(-4),
          tokenHash: hashToken(secret),
          scopes: [...new Set(req.scopes)],
          createdBy: actor.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + req.expiresInDays * DAY_MS),
        })
        .returning();
      await emit('identity.api_token.created.v1', {
        tokenId: row.id,
        name: row.name,
        scopes: row.scopes as Scope[],
        expiresAt: row.expiresAt.toISOString(),
        byUserId: actor.id,
      });
      return { token: view(row, actor.name), secret };
    });
  }

  /** At once: the next request with the token is refused. Another admin's token is a 404 to an admin. */
  revoke(req: Req<'identity.api_token.revoke.v1'>): Promise<Reply<'identity.api_token.revoke.v1'>> {
    return this.uow.run(async (tx, emit) => {
      const actor = await this.manager(req.actorId, tx);
      const [row] = await tx.select().from(apiTokens).where(eq(apiTokens.id, req.id)).for('update');
      if (!row || (actor.role !== 'superadmin' && row.createdBy !== actor.id)) throw new RpcError(404, 'Token not found', { field: 'id' });
      if (row.revokedAt) return { ok: true };
      await tx.update(apiTokens).set({ revokedAt: this.clock(), revokedBy: actor.id }).where(eq(apiTokens.id, row.id));
      await emit('identity.api_token.revoked.v1', { tokenId: row.id, name: row.name, ownerId: row.createdBy, byUserId: actor.id });
      return { ok: true };
    });
  }

  /**
   * Who a machine's request acts as, counting the use, in one statement: a token that is unknown,
   * revoked or expired, or whose creator is deactivated, deleted or no longer an admin, names nobody.
   */
  async authenticate(token: string): Promise<Reply<'identity.api_token.authenticate.v1'>> {
    const now = this.clock();
    const result = (await this.db.execute(sql`
      update ${apiTokens} t
         set last_used_at = ${now.toISOString()}::timestamptz, use_count = t.use_count + 1
        from ${users} u
       where t.token_hash = ${hashToken(token)}
         and t.revoked_at is null
         and t.expires_at > ${now.toISOString()}::timestamptz
         and u.id = t.created_by
         and u.disabled_at is null
         and u.role in ('admin', 'superadmin')
      returning t.id, t.name, t.scopes, u.id as user_id, u.role, u.username, u.name as user_name`)) as unknown as {
      rows: {
        id: number;
        name: string;
        scopes: string[];
        user_id: number;
        role: 'admin' | 'superadmin';
        username: string;
        user_name: string;
      }[];
    };
    const row = result.rows[0];
    if (!row) return {};
    return {
      principal: {
        tokenId: row.id,
        name: row.name,
        scopes: row.scopes,
        userId: row.user_id,
        role: row.role,
        username: row.username,
        userName: row.user_name,
      },
    };
  }

  /** Tokens are made and revoked by admins and the superadmin whose accounts are active. */
  private async manager(actorId: number, tx: Pick<Db, 'select'> = this.db) {
    const [actor] = await tx
      .select({ id: users.id, role: users.role, name: users.name })
      .from(users)
      .where(and(eq(users.id, actorId), isNull(users.disabledAt)));
    if (!actor || actor.role === 'worker') throw new RpcError(403, 'Not allowed for your role');
    return actor;
  }
}
