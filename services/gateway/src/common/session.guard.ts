import { CanActivate, ExecutionContext, ForbiddenException, Inject, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { SESSION_STORE, type SessionData, type SessionStore } from '../sessions/session.store';
import { KIOSK_SESSION_IDLE_SECONDS, KIOSK_SESSION_MAX_SECONDS, SESSION_COOKIE, sessionTtlSeconds } from '../sessions/cookies';

export type Role = SessionData['role'];
export const PUBLIC = 'lws:public';
export const ROLES = 'lws:roles';

/** Reachable without a session. */
export const Public = () => SetMetadata(PUBLIC, true);
/** Only these roles; without it any signed-in user passes. */
export const Roles = (...roles: Role[]) => SetMetadata(ROLES, roles);

export interface AuthedRequest extends Request {
  session?: SessionData;
  sessionId?: string;
}

export const NOT_AUTHENTICATED = 'Not authenticated';
export const ROLE_NOT_ALLOWED = 'Not allowed for your role';

/** The session cookie's id, when it is one the store could hold. */
export function sessionIdOf(req: Request): string | undefined {
  const id: unknown = req.cookies?.[SESSION_COOKIE];
  return typeof id === 'string' && id.length > 0 && id.length < 200 ? id : undefined;
}

/** Every API route needs a session unless marked @Public(); @Roles narrows it further. */
@Injectable()
export class SessionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SESSION_STORE) private readonly store: SessionStore,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
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
}
