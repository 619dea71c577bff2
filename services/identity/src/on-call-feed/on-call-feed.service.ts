import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, DB, type Clock, type Db } from '@lws/platform';
import { onCallFeeds, users } from '../db/schema';
import { hashToken } from '../scim/scim-tokens.service';
import { OnCallService } from '../teams/on-call.service';
import { icalendar } from './icalendar';

type Reply<P extends keyof CommandMap> = CommandMap[P]['reply'];
type Request<P extends keyof CommandMap> = CommandMap[P]['request'];

const DAY_MS = 86_400_000;
/** A feed shows the past week (what was worked) and the next 55 days: the 62 days a timeline may cover. */
const FEED_PAST_DAYS = 7;
const FEED_AHEAD_DAYS = 55;
export const FEED_NOT_FOUND = 'Calendar feed not found';

/**
 * Each admin's own on-call stretches, on their profile and as a calendar feed they subscribe to by
 * an unguessable address (`lws_ical_` and 32 random bytes). Identity keeps only the token's hash;
 * making a new feed replaces the old one, whose address stops working, and revoking ends it.
 */
@Injectable()
export class OnCallFeedService {
  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly onCall: OnCallService,
  ) {}

  async mine(req: Request<'identity.on_call.mine.v1'>): Promise<Reply<'identity.on_call.mine.v1'>> {
    const [feed] = await this.db.select({ userId: onCallFeeds.userId }).from(onCallFeeds).where(eq(onCallFeeds.userId, req.userId));
    const stretches = await this.onCall.stretchesOf(req.userId, new Date(req.from), new Date(req.to));
    return {
      hasFeed: feed !== undefined,
      slots: stretches.map((s) => ({
        teamId: s.teamId,
        teamName: s.teamName,
        layerName: s.layerName,
        start: s.start.toISOString(),
        end: s.end.toISOString(),
        ...(s.via ? { via: s.via } : {}),
        ...(s.forUserId !== undefined ? { forUserId: s.forUserId } : {}),
      })),
    };
  }

  async create(req: Request<'identity.on_call.feed_create.v1'>): Promise<Reply<'identity.on_call.feed_create.v1'>> {
    const token = `lws_ical_${randomBytes(32).toString('base64url')}`;
    const row = { userId: req.userId, tokenHash: hashToken(token), createdAt: this.clock() };
    await this.db.insert(onCallFeeds).values(row).onConflictDoUpdate({ target: onCallFeeds.userId, set: row });
    return { token };
  }

  async revoke(req: Request<'identity.on_call.feed_revoke.v1'>): Promise<Reply<'identity.on_call.feed_revoke.v1'>> {
    const gone = await this.db.delete(onCallFeeds).where(eq(onCallFeeds.userId, req.userId)).returning({ userId: onCallFeeds.userId });
    return { revoked: gone.length > 0 };
  }

  /** The calendar a token names; 404 for one that names none. An account no longer an admin has none. */
  async calendar(req: Request<'identity.on_call.feed.v1'>): Promise<Reply<'identity.on_call.feed.v1'>> {
    const [owner] = await this.db
      .select({ id: users.id, name: users.name, role: users.role, disabledAt: users.disabledAt })
      .from(onCallFeeds)
      .innerJoin(users, eq(users.id, onCallFeeds.userId))
      .where(eq(onCallFeeds.tokenHash, hashToken(req.token)));
    if (!owner || owner.role === 'worker' || owner.disabledAt !== null) throw new RpcError(404, FEED_NOT_FOUND, { field: 'token' });
    const now = this.clock();
    const stretches = await this.onCall.stretchesOf(
      owner.id,
      new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS),
      new Date(now.getTime() + FEED_AHEAD_DAYS * DAY_MS),
    );
    const events = stretches.map((s) => ({
      uid: `oncall-${s.teamId}-${s.layer}-${s.start.getTime()}@lws`,
      start: s.start,
      end: s.end,
      summary: `On call: ${s.teamName} (${s.layerName})`,
      ...(s.via === 'deputy'
        ? { description: 'Standing in as deputy for someone away' }
        : s.via === 'override'
          ? { description: 'Covering by an override' }
          : {}),
    }));
    return { calendar: icalendar(`On call: ${owner.name}`, events, now) };
  }
}
