import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { CommandMap, EventMap } from '@lws/contracts';
import { SOURCE_LANGUAGE } from '@lws/i18n';
import { type RpcClient } from '@lws/messaging';
import { DB, digestLines, lineHashes, LOGGER, pgArray, RECONCILE_MAX_IDS, RPC, type Db, type Logger, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { teams, workerContacts, workers } from '../db/schema';
import { workerLabel } from '../alarms/messages';
import { WorkersProjection } from '../workers/workers.projection';
import {
  chunk,
  FETCH_CONCURRENCY,
  inParallel,
  inSet,
  RPC_TIMEOUT_MS,
  type BucketDigest,
  type ReconcileSide,
  type Repair,
  type RepairOutcome,
  type RepairSet,
} from './side';

type OwnerUser = CommandMap['identity.reconcile.users.v1']['reply']['users'][number];
type Versioned<E> = E & { version: number };

/**
 * A kind whose repairs are the projection's own event paths, fed what identity holds now at its
 * version: many written by `writeMany` together, each answering the outcome it was planned with
 * (as its `apply` does, whatever the version fence let through).
 */
function asPlanned<E>(writeMany: (tx: Tx, events: E[]) => Promise<void>): RepairSet<{ events: E[]; outcome: RepairOutcome }> {
  return {
    async applyMany(tx, _emit, items) {
      await writeMany(
        tx,
        items.flatMap((i) => i.events),
      );
      return items.map((i) => i.outcome);
    },
  };
}

interface OwnUser {
  user_id: number;
  name: string | null;
  phone: string | null;
  role: string | null;
  team_id: number | null;
  away_until: string | Date | null;
  language: string | null;
  check_in_interval: number;
  primary_contact: string | null;
  secondary_contact: string | null;
}
interface OwnContact {
  contact_id: number;
  user_id: number;
  name: string | null;
  phone: string | null;
  relation: string | null;
}

/**
 * Escalation's copy of identity's data: each user's name, phone and role (profile_stale), check-in
 * settings and the primary and secondary contacts (settings_stale), and emergency contacts
 * (contacts_stale). A lost identity.contact.changed would otherwise leave an emergency calling a
 * number the worker has replaced.
 */
@Injectable()
export class IdentitySide implements ReconcileSide {
  readonly owner = 'identity' as const;
  private readonly profileRepairs = asPlanned<Versioned<EventMap['identity.user.updated.v1']>>((tx, events) =>
    this.projection.userUpdatedMany(tx, events),
  );
  private readonly settingsRepairs = asPlanned<EventMap['identity.settings.changed.v1']>((tx, events) =>
    this.projection.settingsChangedMany(tx, events),
  );
  private readonly contactRepairs = asPlanned<EventMap['identity.contact.changed.v1']>((tx, events) =>
    this.projection.contactChangedMany(tx, events),
  );

  constructor(
    private readonly projection: WorkersProjection,
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {}

  async digests(buckets: number): Promise<{ theirs: BucketDigest[]; ours: BucketDigest[] }> {
    const [theirs, ours] = await Promise.all([
      this.rpc.send('identity.reconcile.digest.v1', { buckets }, { timeoutMs: RPC_TIMEOUT_MS }),
      digestLines(this.db, this.lines(), buckets),
    ]);
    return { theirs: theirs.digests.map((d) => ({ bucket: d.bucket, digest: d.digest, count: d.users })), ours };
  }

  async hashes(buckets: number, bucketIds: number[]): Promise<{ theirs: string; ours: Map<number, string> }> {
    const [theirs, ours] = await Promise.all([
      this.rpc.send('identity.reconcile.hashes.v1', { buckets, bucketIds }, { timeoutMs: RPC_TIMEOUT_MS }),
      lineHashes(this.db, this.lines(), buckets, pgArray(bucketIds)),
    ]);
    return { theirs: theirs.hashes, ours };
  }

  /** Each user escalation knows and the line it hashes to, as identity defines them. */
  private lines() {
    return sql`lines as (
      select w.user_id,
        w.user_id::text || '|' || coalesce(w.name, '') || '|' || coalesce(w.phone, '') || '|' || coalesce(w.role, '') || '|'
          || w.check_in_interval::text || '|' || coalesce(w.primary_contact, '') || '|' || coalesce(w.secondary_contact, '') || '|'
          || coalesce((select string_agg(c.contact_id::text || ':' || coalesce(c.phone, '') || ':' || coalesce(c.name, '') || ':' || coalesce(c.relation, ''), ',' order by c.contact_id)
                       from ${workerContacts} c where c.user_id = w.user_id and not c.deleted), '') || '|'
          || coalesce(w.team_id::text, '') || '|' || coalesce(floor(extract(epoch from w.away_until) * 1000)::bigint::text, '') || '|'
          || coalesce(nullif(w.language, ${SOURCE_LANGUAGE}), '') as line
      from ${workers} w where w.deleted_at is null)`;
  }

  /**
   * The teams, compared whole (they are few): one identity has at a newer version than escalation's
   * copy, or escalation lacks, is taken as identity has it; one identity no longer has is gone. A lost
   * identity.team.changed would otherwise send a team's alarms to the monitors it had before. A team
   * changed within the grace is left to its event, which is on its way (a fresh install's Default
   * team, announced at identity's first start, is no lost change).
   */
  async wholeRepairs(startedAt: Date): Promise<Repair[]> {
    const [{ teams: theirs }, ours] = await Promise.all([
      this.rpc.send('identity.team.list.v1', {}, { timeoutMs: RPC_TIMEOUT_MS }),
      this.db.select({ id: teams.id, name: teams.name, version: teams.version, deletedAt: teams.deletedAt }).from(teams),
    ]);
    const mine = new Map(ours.map((t) => [t.id, t]));
    const repairs: Repair[] = [];
    for (const team of theirs) {
      const copy = mine.get(team.id);
      if (copy && copy.version >= team.version) continue;
      if (startedAt.getTime() - Date.parse(team.updatedAt) < this.settings.reconcileGraceMs) continue;
      repairs.push({
        kind: 'team_stale',
        userId: 0,
        apply: async (tx) => {
          await this.projection.teamAsOf(tx, team, false);
          return {
            changed: true,
            dueNow: false,
            details: `team ${team.name} in escalation differed from identity (a change was lost); escalation now routes its alarms to its current monitors and policy`,
          };
        },
      });
    }
    const listed = new Set(theirs.map((t) => t.id));
    for (const copy of ours) {
      if (copy.deletedAt || listed.has(copy.id)) continue;
      repairs.push({
        kind: 'team_stale',
        userId: 0,
        apply: async (tx) => {
          return {
            changed: await this.projection.teamGone(tx, copy.id),
            dueNow: false,
            details: `team ${copy.name} was deleted in identity but not in escalation (a change was lost); escalation has removed it`,
          };
        },
      });
    }
    return repairs;
  }

  async compare(_buckets: number, userIds: number[]): Promise<{ compared: number; repairs: Repair[] }> {
    const owner = new Map<number, OwnerUser>();
    let ownerNow = 0;
    const ids = pgArray(userIds);
    const [, { rows: userRows }, { rows: contactRows }] = (await Promise.all([
      inParallel(chunk(userIds, RECONCILE_MAX_IDS), FETCH_CONCURRENCY, async (batch) => {
        const reply = await this.rpc.send(
          'identity.reconcile.users.v1',
          { buckets: 1, bucketIds: [], userIds: batch },
          { timeoutMs: RPC_TIMEOUT_MS },
        );
        for (const u of reply.users) owner.set(u.userId, u);
        ownerNow = Math.max(ownerNow, Date.parse(reply.now));
      }),
      this.db.execute(sql`
        select user_id, name, phone, role, team_id, away_until, language, check_in_interval, primary_contact, secondary_contact from ${workers}
        where deleted_at is null and user_id = any(${ids}::int[])`),
      this.db.execute(
        sql`select contact_id, user_id, name, phone, relation from ${workerContacts} where not deleted and user_id = any(${ids}::int[])`,
      ),
    ])) as unknown as [unknown, { rows: OwnUser[] }, { rows: OwnContact[] }];
    const mine = new Map(userRows.map((r) => [r.user_id, r]));
    const contactsOf = new Map<number, OwnContact[]>();
    for (const c of contactRows) contactsOf.set(c.user_id, [...(contactsOf.get(c.user_id) ?? []), c]);

    const repairs: Repair[] = [];
    const unknown: number[] = [];
    let compared = 0;
    for (const userId of new Set([...owner.keys(), ...mine.keys()])) {
      compared++;
      const o = owner.get(userId);
      const e = mine.get(userId);
      if (!o) {
        // Not proof of a deletion this copy missed (a deletion is its own event, and final): left as it is.
        unknown.push(userId);
        continue;
      }
      if (ownerNow - Date.parse(o.versionChangedAt) < this.settings.reconcileGraceMs) continue;
      const label = workerLabel(o.name, userId);
      const version = o.version;
      const awayAt = (v: string | Date | null | undefined) => (v ? new Date(v).getTime() : null);
      // A lost language change would text the worker, and call their contacts, in the wrong language.
      const spoken = (language: string | null | undefined) => language || SOURCE_LANGUAGE;
      if (
        !e ||
        e.name !== o.name ||
        (e.phone ?? undefined) !== o.phone ||
        e.role !== o.role ||
        (e.team_id ?? undefined) !== o.teamId ||
        awayAt(e.away_until) !== awayAt(o.awayUntil) ||
        spoken(e.language) !== spoken(o.language)
      ) {
        const update = {
          userId,
          name: o.name,
          role: o.role,
          ...(o.phone ? { phone: o.phone } : {}),
          ...(o.teamId !== undefined ? { teamId: o.teamId } : {}),
          ...(o.awayUntil !== undefined ? { awayUntil: o.awayUntil } : {}),
          language: spoken(o.language),
          version,
        };
        const outcome = {
          changed: true,
          dueNow: false,
          details: `${label}'s name, phone, role, team, away time or language in escalation differed from identity (a change was lost); escalation now has the current ones`,
        };
        repairs.push({
          kind: 'profile_stale',
          userId,
          apply: async (tx) => {
            await this.projection.userUpdated(tx, update);
            return outcome;
          },
          together: inSet(this.profileRepairs, { events: [update], outcome }),
        });
      }
      if (
        o.checkInInterval !== undefined &&
        (!e ||
          e.check_in_interval !== o.checkInInterval ||
          (e.primary_contact ?? undefined) !== o.primaryContact ||
          (e.secondary_contact ?? undefined) !== o.secondaryContact)
      ) {
        const change = {
          userId,
          checkInInterval: o.checkInInterval,
          ...(o.primaryContact !== undefined ? { primaryContact: o.primaryContact } : {}),
          ...(o.secondaryContact !== undefined ? { secondaryContact: o.secondaryContact } : {}),
          version,
        };
        const outcome = {
          changed: true,
          dueNow: false,
          details: `${label}'s check-in settings and contact numbers in escalation differed from identity (a change was lost); escalation now has the current ones`,
        };
        repairs.push({
          kind: 'settings_stale',
          userId,
          apply: async (tx) => {
            await this.projection.settingsChanged(tx, change);
            return outcome;
          },
          together: inSet(this.settingsRepairs, { events: [change], outcome }),
        });
      }
      const ours = new Map((contactsOf.get(userId) ?? []).map((c) => [c.contact_id, c]));
      const changedContacts = o.contacts.filter((c) => {
        const mineC = ours.get(c.contactId);
        return !mineC || mineC.name !== c.name || mineC.phone !== c.phone || mineC.relation !== c.relation;
      });
      const goneContacts = [...ours.keys()].filter((id) => !o.contacts.some((c) => c.contactId === id));
      if (changedContacts.length > 0 || goneContacts.length > 0) {
        const events: EventMap['identity.contact.changed.v1'][] = [
          ...changedContacts.map((c) => ({
            userId,
            contactId: c.contactId,
            change: 'updated' as const,
            name: c.name,
            phone: c.phone,
            relation: c.relation,
            version,
          })),
          ...goneContacts.map((contactId) => ({ userId, contactId, change: 'deleted' as const, version })),
        ];
        const n = o.contacts.length;
        const outcome = {
          changed: true,
          dueNow: false,
          details: `${label}'s emergency contacts in escalation differed from identity (a change was lost); escalation now has the current ${n === 1 ? 'contact' : `${n} contacts`}`,
        };
        repairs.push({
          kind: 'contacts_stale',
          userId,
          apply: async (tx) => {
            for (const event of events) await this.projection.contactChanged(tx, event);
            return outcome;
          },
          together: inSet(this.contactRepairs, { events, outcome }),
        });
      }
    }
    if (unknown.length > 0) {
      this.logger.warn(
        { users: unknown.length, userIds: unknown.slice(0, 20) },
        'escalation holds users identity does not; leaving the copy as it is',
      );
    }
    return { compared, repairs };
  }
}
