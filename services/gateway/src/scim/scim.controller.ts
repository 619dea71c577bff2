import { Controller, Delete, Get, Inject, Patch, Post, Put, Req, Res, UseFilters } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { bearerOf } from '../common/bearer';
import { RPC } from '../common/rpc';
import { Public } from '../common/session.guard';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { SCIM_CONTENT_TYPE, ScimExceptionFilter, sendScimError } from './scim-error';

/** Creating a team with its members, or a worker (a password hash), takes identity a while. */
const SCIM_TIMEOUT_MS = 30_000;

/**
 * SCIM 2.0 provisioning at /scim/v2 (docs/sso-scim.md). The organisation's directory authenticates
 * with a bearer token, never a session cookie, so there is no session and no CSRF check here. The
 * gateway limits each token's rate and passes the request to identity, which checks the token and
 * owns every rule; it answers with identity's status and body, and first signs out the people the
 * request deactivated or deleted.
 */
@Controller('scim/v2')
@Public()
@UseFilters(ScimExceptionFilter)
export class ScimController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(COUNTERS) private readonly counters: Counters,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Get('*path')
  get(@Req() req: Request, @Res() res: Response) {
    return this.forward(req, res);
  }

  @Post('*path')
  post(@Req() req: Request, @Res() res: Response) {
    return this.forward(req, res);
  }

  @Put('*path')
  put(@Req() req: Request, @Res() res: Response) {
    return this.forward(req, res);
  }

  @Patch('*path')
  patch(@Req() req: Request, @Res() res: Response) {
    return this.forward(req, res);
  }

  @Delete('*path')
  remove(@Req() req: Request, @Res() res: Response) {
    return this.forward(req, res);
  }

  private async forward(req: Request, res: Response): Promise<void> {
    const token = bearerOf(req);
    if (!token) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="LWS SCIM"');
      return sendScimError(res, 401, 'Authorization: Bearer <token> is required (a token the superadmin created)');
    }
    // Keyed by the token's hash: the store never holds a token.
    const key = `scim:${createHash('sha256').update(token).digest('hex').slice(0, 32)}`;
    if ((await this.counters.hit(key, 60)) > this.config.SCIM_MAX_REQUESTS_PER_MINUTE) {
      res.setHeader('Retry-After', '60');
      return sendScimError(res, 429, `Too many requests: at most ${this.config.SCIM_MAX_REQUESTS_PER_MINUTE} a minute for one token`);
    }
    const method = req.method === 'HEAD' ? 'GET' : (req.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE');
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    const body = typeof req.body === 'string' && (method === 'POST' || method === 'PUT' || method === 'PATCH') ? req.body : undefined;
    const reply = await this.rpc.send(
      'identity.scim.request.v1',
      {
        token,
        method,
        path: req.path.replace(/^\/scim\/v2/i, ''),
        query,
        ...(body !== undefined ? { body } : {}),
        baseUrl: `${this.origin(req)}/scim/v2`,
      },
      { timeoutMs: SCIM_TIMEOUT_MS },
    );
    // Before the answer: once the directory hears it, the person is signed out everywhere.
    for (const userId of reply.revokeUserIds) await this.sessions.destroyAllForUser(userId);
    res.status(reply.status);
    if (reply.location) res.setHeader('Location', reply.location);
    if (reply.body === undefined) {
      res.end();
      return;
    }
    res.type(SCIM_CONTENT_TYPE).send(reply.body);
  }

  /** The origin the directory reached LWS on: PUBLIC_ORIGIN when set, else the request's own. */
  private origin(req: Request): string {
    if (this.config.PUBLIC_ORIGIN) return new URL(this.config.PUBLIC_ORIGIN).origin;
    return `${req.protocol}://${req.get('host') ?? 'localhost'}`.slice(0, 1000);
  }
}
