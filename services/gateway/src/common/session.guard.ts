import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  HttpException,
  Inject,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { createHash } from 'node:crypto';
import type { ApiScope } from '@lws/schemas';
import type { RpcClient } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';
import { SESSION_STORE, type SessionData, type SessionStore } from '../sessions/session.store';
import { KIOSK_SESSION_IDLE_SECONDS, KIOSK_SESSION_MAX_SECONDS, SESSION_COOKIE, sessionTtlSeconds } from '../sessions/cookies';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { TOKEN_SCOPE } from '../api-tokens/token-scope';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { bearerOf, sendsBearer } from './bearer';
import { RPC } from './rpc';

export type Role = SessionData['role'];
export const PUBLIC = 'lws:public';
export const ROLES = 'lws:roles';

/** Reachable without a session. */
export const Public = () => SetMetadata(PUBLIC, true);
/** Only these roles; without it any signed-in user passes. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES, roles);

/** The machine a request with an API token comes from: it acts as the token's creator. */
export interface ApiTokenActor {
  id: number;
  name: string;
  scopes: ApiScope[];
}

export interface AuthedRequest extends Request {
  session?: SessionData;
  sessionId?: string;
  /** Set when the request came with an API token instead of a session (`session` is then its creator's). */
  apiToken?: ApiTokenActor;
}

export const NOT_AUTHENTICATED = 'Not authenticated';
export const ROLE_NOT_ALLOWED = 'Not allowed for your role';
export const TOKEN_NOT_ACCEPTED = 'This route does not accept API tokens: sign in as a person';
export const TOKEN_INVALID = 'Invalid API token: unknown, expired or revoked, or its creator can no longer use it';

/** The session cookie's id, when it is one the store could hold. */
export function sessionIdOf(req: Request): string | undefined {
  const id: unknown = req.cookies?.[SESSION_COOKIE];
  return typeof id === 'string' && id.length > 0 && id.length < 200 ? id : undefined;
}

/**
 * Every API route needs a session unless marked @Public(); @Roles narrows it further. A request
 * with `Authorization: Bearer` is a machine's: judged by its API token alone (any cookie it carries
 * is ignored), only on routes marked @TokenScope with a scope the token holds.
 */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(COUNTERS) private readonly counters: Counters,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    if (sendsBearer(req)) return this.machine(ctx, req);
    const id = sessionIdOf(req);
    if (id) {
      const session = await this.store.get(id);
      if (session?.kiosk && Date.parse(session.createdAt) + KIOSK_SESSION_MAX_SECONDS * 1000 <= Date.now()) {
        await this.store.destroy(id);
      } else if (session) {
        req.session = session;
        req.sessionId = id;
        if (session.kiosk) await this.store.touch(id, KIOSK_SESSION_IDLE_SECONDS);
        else if (!session.remember) await this.store.touch(id, sessionTtlSeconds(false));
      }
    }
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    if (!req.session) throw new UnauthorizedException({ message: NOT_AUTHENTICATED });
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES, targets);
    if (roles && !roles.includes(req.session.role)) throw new ForbiddenException({ message: ROLE_NOT_ALLOWED });
    return true;
  }

  private async machine(ctx: ExecutionContext, req: AuthedRequest): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC, targets)) return true;
    const res = ctx.switchToHttp().getResponse<Response>();
    const scope = this.reflector.getAllAndOverride<ApiScope | undefined>(TOKEN_SCOPE, targets);
    if (!scope) throw new ForbiddenException({ message: TOKEN_NOT_ACCEPTED });
    const token = bearerOf(req);
    if (!token) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="LWS API"');
      throw new UnauthorizedException({ message: TOKEN_INVALID });
    }
    // Keyed by the token's hash: the store never holds a token.
    const key = `api-token:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
    if ((await this.counters.hit(key, 60)) > this.config.API_TOKEN_MAX_REQUESTS_PER_MINUTE) {
      res.setHeader('Retry-After', '60');
      throw new HttpException(
        { message: `Too many requests: at most ${this.config.API_TOKEN_MAX_REQUESTS_PER_MINUTE} a minute for one token` },
        429,
      );
    }
    const { principal } = await this.rpc.send('identity.api_token.authenticate.v1', { token });
    if (!principal) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="LWS API", error="invalid_token"');
      throw new UnauthorizedException({ message: TOKEN_INVALID });
    }
    const used = { tokenId: principal.tokenId, token: principal.name, actorId: principal.userId, method: req.method, path: req.path };
    if (!principal.scopes.includes(scope)) {
      this.logger.warn({ ...used, scope }, 'api token refused: scope missing');
      res.setHeader('WWW-Authenticate', `Bearer realm="LWS API", error="insufficient_scope", scope="${scope}"`);
      throw new ForbiddenException({ message: `This token lacks the scope ${scope}` });
    }
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES, targets);
    if (roles && !roles.includes(principal.role)) throw new ForbiddenException({ message: ROLE_NOT_ALLOWED });
    this.logger.info({ ...used, scope }, 'api token request');
    req.apiToken = { id: principal.tokenId, name: principal.name, scopes: principal.scopes as ApiScope[] };
    req.session = {
      userId: principal.userId,
      role: principal.role,
      username: principal.username,
      name: principal.userName,
      remember: false,
      kiosk: false,
      createdAt: new Date().toISOString(),
    };
    return true;
  }
}
