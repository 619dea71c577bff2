import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { DB, digestLines, lineHashesText, reconcileBuckets, reconcileIds, type Db } from '@lws/platform';
import { emergencyContacts, teams, userSettings, users } from '../db/schema';

type Digest = CommandMap['identity.reconcile.digest.v1'];
type Hashes = CommandMap['identity.reconcile.hashes.v1'];
type Users = CommandMap['identity.reconcile.users.v1'];
/** A user's language unless set otherwise (users.language's default): a copy holding none agrees with it. */
const ENGLISH = 'en';

/**
 * What a copy of users' data (escalation's phone numbers, settings and emergency contacts) is
 * compared with: every user digested by bucket (proto/identity.proto, ReconcileUsersDigestRequest,
 * defines the line hashed; the copy builds the same), then the users of the buckets that differ.
 * The check-in interval is the one that applies, as identity publishes it: a worker without
 * settings follows their team's default.
 */
@Injectable()
export class ReconcileService {
  constructor(@Inject(DB) private readonly db: Db) {}

  async digest(req: Digest['request']): Promise<Digest['reply']> {
    const digests = await digestLines(this.db, this.lines(), req.buckets);
    return { digests: digests.map((d) => ({ bucket: d.bucket, digest: d.digest, users: d.count })) };
  }

  async hashes(req: Hashes['request']): Promise<Hashes['reply']> {
    return { hashes: await lineHashesText(this.db, this.lines(), req.buckets, reconcileBuckets(req)) };
  }

  async users(req: Users['request']): Promise<Users['reply']> {
    const bucketIds = reconcileBuckets(req);
    const userIds = reconcileIds(req.userIds, 'userIds');
    const { rows } = (await this.db.execute(sql`
      select u.id, u.version, u.version_changed_at, u.name, u.phone, u.role, u.team_id, u.away_until, u.language,
        coalesce(s.check_in_interval, t.default_interval) as check_in_interval, s.primary_contact, s.secondary_contact,
        (select coalesce(json_agg(json_build_object('contactId', c.id, 'name', c.name, 'phone', c.phone, 'relation', c.relation) order by c.id), '[]')
           from ${emergencyContacts} c where c.user_id = u.id) as contacts,
        now() as now
      from ${users} u left join ${userSettings} s on s.user_id = u.id left join ${teams} t on t.id = u.team_id
      where u.id % ${req.buckets} = any(${bucketIds}::int[]) or u.id = any(${userIds}::int[])`)) as unknown as { rows: UserRow[] };
    const now = rows[0]?.now ?? ((await this.db.execute(sql`select now() as now`)) as unknown as { rows: { now: unknown }[] }).rows[0].now;
    return {
      users: rows.map((r) => ({
        userId: r.id,
        version: r.version,
        versionChangedAt: new Date(r.version_changed_at as string).toISOString(),
        name: r.name,
        ...(r.phone ? { phone: r.phone } : {}),
        role: r.role,
        ...(r.check_in_interval !== null ? { checkInInterval: r.check_in_interval } : {}),
        ...(r.primary_contact !== null ? { primaryContact: r.primary_contact } : {}),
        ...(r.secondary_contact !== null ? { secondaryContact: r.secondary_contact } : {}),
        contacts: typeof r.contacts === 'string' ? JSON.parse(r.contacts) : r.contacts,
        ...(r.team_id !== null ? { teamId: r.team_id } : {}),
        ...(r.away_until !== null ? { awayUntil: new Date(r.away_until).toISOString() } : {}),
        ...(r.language !== null && r.language !== ENGLISH ? { language: r.language } : {}),
      })),
      now: new Date(now as string).toISOString(),
    };
  }

  /** Each user's line (the contract's definition). */
  private lines() {
    return sql`lines as (
      select u.id as user_id,
        u.id::text || '|' || u.name || '|' || coalesce(u.phone, '') || '|' || u.role || '|' || coalesce(s.check_in_interval, t.default_interval, 60)::text || '|'
          || coalesce(s.primary_contact, '') || '|' || coalesce(s.secondary_contact, '') || '|'
          || coalesce((select string_agg(c.id::text || ':' || c.phone || ':' || c.name || ':' || c.relation, ',' order by c.id)
                       from ${emergencyContacts} c where c.user_id = u.id), '') || '|'
          || coalesce(u.team_id::text, '') || '|' || coalesce(floor(extract(epoch from u.away_until) * 1000)::bigint::text, '') || '|'
          || coalesce(nullif(u.language, ${ENGLISH}), '') as line
      from ${users} u left join ${userSettings} s on s.user_id = u.id left join ${teams} t on t.id = u.team_id)`;
  }
}

interface UserRow {
  id: number;
  version: number;
  version_changed_at: string | Date;
  name: string;
  phone: string | null;
  role: 'worker' | 'admin' | 'superadmin';
  team_id: number | null;
  away_until: string | Date | null;
  language: string | null;
  check_in_interval: number | null;
  primary_contact: string | null;
  secondary_contact: string | null;
  contacts: string | { contactId: number; name: string; phone: string; relation: string }[];
  now: unknown;
}
