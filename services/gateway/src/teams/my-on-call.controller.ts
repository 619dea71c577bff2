import { Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { ON_CALL_TIMELINE_MAX_DAYS, onCallTimelineQuery } from '@lws/schemas';
import { RPC } from '../common/rpc';
import { Public, Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';

const DAY_MS = 86_400_000;
const FEED_TOKEN = /^lws_ical_[A-Za-z0-9_-]{43}$/;
const NOT_FOUND = { message: 'Calendar feed not found', field: 'token' };

/** Where a feed is read: calendar apps are given this path on the site's own address. */
export const feedPath = (token: string) => `/api/on-call/feed/${token}`;

/**
 * An admin's own on-call stretches (docs/api-teams.md): on their profile, and as a calendar feed at
 * an unguessable, revocable address that calendar apps read without a session.
 */
@Controller('api')
export class MyOnCallController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** The caller's stretches from `from` to `to` (the next 14 days by default; at most 62). */
  @Get('profile/on-call')
  @Roles('admin', 'superadmin')
  async mine(@Query() query: unknown, @Req() req: AuthedRequest) {
    const q = parseInput(onCallTimelineQuery, query);
    const from = q.from ? new Date(q.from) : new Date();
    const to = q.to ? new Date(q.to) : new Date(from.getTime() + 14 * DAY_MS);
    if (to <= from || to.getTime() - from.getTime() > ON_CALL_TIMELINE_MAX_DAYS * DAY_MS) {
      parseInput(onCallTimelineQuery, { from: from.toISOString(), to: to.toISOString() });
    }
    return this.rpc.send('identity.on_call.mine.v1', { userId: req.session!.userId, from: from.toISOString(), to: to.toISOString() });
  }

  /** A new feed address (the old one, if any, stops working): shown once. */
  @Post('profile/on-call/feed')
  @Roles('admin', 'superadmin')
  async createFeed(@Req() req: AuthedRequest) {
    const { token } = await this.rpc.send('identity.on_call.feed_create.v1', { userId: req.session!.userId });
    return { path: feedPath(token) };
  }

  @Delete('profile/on-call/feed')
  @HttpCode(200)
  @Roles('admin', 'superadmin')
  async revokeFeed(@Req() req: AuthedRequest) {
    // Answers whether there was one: revoking twice is no error.
    const { revoked } = await this.rpc.send('identity.on_call.feed_revoke.v1', { userId: req.session!.userId });
    return { revoked };
  }

  /** The calendar itself: the token is the only key, and anything else is the same 404. */
  @Get('on-call/feed/:token')
  @Public()
  async feed(@Param('token') token: string, @Res({ passthrough: true }) res: Response) {
    if (!FEED_TOKEN.test(token)) throw new NotFoundException(NOT_FOUND);
    const { calendar } = await this.rpc.send('identity.on_call.feed.v1', { token });
    // Set here, not by @Header: a refusal stays JSON.
    res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
    res.setHeader('Cache-Control', 'private, no-store');
    return calendar;
  }
}
