import { Controller, Get, HttpException, Inject, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';
import type { AuthedRequest } from '../common/session.guard';
import { RPC } from '../common/rpc';
import { parseInput } from '../common/validation';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { LiveFeed, LiveScope, type LiveSubscriber, type TeamScope } from './live-feed';
import { lastEventIdHeader, liveQuery } from './live.schema';

export const TOO_MANY_STREAMS = 'Too many live update streams are open for this account; close a tab or use the refresh';
/** A client this far behind is not reading: it is dropped and catches up when it reconnects. */
const MAX_UNSENT_BYTES = 512 * 1024;
const RETRY_MS = 3000;

/**
 * GET /api/events: the Server-Sent Events stream (docs/api-live.md). Any signed-in user; a worker
 * gets only what concerns itself, an admin what concerns their teams' workers, the superadmin
 * everything. The stream ends when the session does.
 */
@Controller('api/events')
export class LiveController {
  private readonly openPerUser = new Map<number, number>();

  constructor(
    @Inject(LiveFeed) private readonly feed: LiveFeed,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(RPC) private readonly rpc: RpcClient,
  ) {}

  /** As workerScope (common/access.ts), with the teams, to place the workers the stream hears move. */
  private async teamScope(adminId: number): Promise<TeamScope | undefined> {
    const scope = await this.rpc.send('identity.team.scope.v1', { adminId });
    return scope.all ? undefined : { teamIds: new Set(scope.teamIds), userIds: new Set(scope.userIds) };
  }

  @Get()
  async stream(@Query() query: unknown, @Req() req: AuthedRequest, @Res() res: Response): Promise<void> {
    const fromQuery = parseInput(liveQuery, query).lastEventId;
    const fromHeader = parseInput(lastEventIdHeader, { 'Last-Event-ID': req.get('last-event-id') || undefined })['Last-Event-ID'];
    const session = req.session!;
    const sessionId = req.sessionId!;
    const { userId, role } = session;
    const open = this.openPerUser.get(userId) ?? 0;
    if (open >= this.config.LIVE_MAX_STREAMS_PER_USER) throw new HttpException({ message: TOO_MANY_STREAMS }, 429);
    // An admin's stream carries only their teams' workers: looked up before anything is sent.
    const scope = role === 'admin' ? await new LiveScope(() => this.teamScope(userId), this.logger).init() : undefined;
    if ((this.openPerUser.get(userId) ?? 0) >= this.config.LIVE_MAX_STREAMS_PER_USER)
      throw new HttpException({ message: TOO_MANY_STREAMS }, 429);
    this.openPerUser.set(userId, (this.openPerUser.get(userId) ?? 0) + 1);

    let closed = false;
    const timers: NodeJS.Timeout[] = [];
    const write = (chunk: string) => {
      if (closed) return;
      res.write(chunk);
      if (res.writableLength > MAX_UNSENT_BYTES) {
        this.logger.info({ userId }, 'live stream dropped: the client is not reading');
        res.destroy();
      }
    };
    const subscriber: LiveSubscriber = { userId, role, ...(scope ? { scope } : {}), send: write, close: () => res.end() };
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Accel-Buffering', 'no');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    req.socket.setNoDelay(true);
    // The browser's own Last-Event-ID wins: it is what that connection last received.
    const { initial, detach } = this.feed.attach(subscriber, fromHeader ?? fromQuery);
    res.once('close', () => {
      closed = true;
      timers.forEach(clearInterval);
      detach();
      const left = (this.openPerUser.get(userId) ?? 1) - 1;
      if (left > 0) this.openPerUser.set(userId, left);
      else this.openPerUser.delete(userId);
    });
    write(`retry: ${RETRY_MS}\n\n${initial}`);

    timers.push(setInterval(() => write(': ping\n\n'), this.config.LIVE_HEARTBEAT_MS));
    // Checked without touching it: an open tab is not activity that keeps a session alive. An
    // admin's teams are looked up again too, in case a change was missed.
    timers.push(
      setInterval(() => {
        scope?.refresh();
        this.sessions.get(sessionId).then(
          (now) => {
            if (!now || now.userId !== userId || now.role !== role) res.end();
          },
          (err: unknown) => this.logger.warn({ err }, 'live stream could not re-check its session; keeping it open until the next check'),
        );
      }, this.config.LIVE_SESSION_CHECK_MS),
    );
  }
}
