import { Injectable } from '@nestjs/common';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Tx } from '@lws/platform';
import { deadlineScopeSql, type AlarmScope } from '../alarms/alarm-scope';
import { deadlines, PRIORITIES, PRIORITY, type DeadlinePayload, type DeadlineRow } from '../db/schema';

export interface DeadlineSpec {
  jobKey: string;
  kind: DeadlineRow['kind'];
  userId: number;
  step: string;
  dueAt: Date;
  payload: DeadlinePayload;
}

export interface NextStep {
  step: string;
  dueAt: Date;
  payload: DeadlinePayload;
}

export const checkinKey = (userId: number) => `checkin:${userId}`;
export const alarmKey = (alarmId: string) => `alarm:${alarmId}`;

/** A row as the driver returns it from a template, read as the query builder reads it. */
const deadlineRow = rowsOf(deadlines) as (raw: Record<string, unknown>) => DeadlineRow;

@Injectable()
export class DeadlinesRepository {
  /** Creates or moves a deadline; the version bump fences out any scheduler holding a claim on the old one. */
  async put(tx: Tx, d: DeadlineSpec): Promise<void> {
    // A template, not the query builder: every shift event, check-in and repair runs it, and the
    // builder costs about fifty times a template's CPU (bench/checkin, bench/reconcile).
    await tx.execute(this.upsert(d, sql``));
  }

  /** put(), answering the row as written, locked by the caller's transaction (no second statement to lock it). */
  async putLocked(tx: Tx, d: DeadlineSpec): Promise<DeadlineRow> {
    const { rows } = (await tx.execute(this.upsert(d, sql` returning *`))) as unknown as { rows: Record<string, unknown>[] };
    return deadlineRow(rows[0]);
  }

  private upsert(d: DeadlineSpec, returning: SQL) {
    return sql`
      insert into ${deadlines} as d (job_key, kind, user_id, step, due_at, version, payload)
      values (${d.jobKey}, ${d.kind}, ${d.userId}, ${d.step}, ${d.dueAt.toISOString()}::timestamptz, 1, ${JSON.stringify(d.payload)}::jsonb)
      on conflict (job_key) do update set step = excluded.step, due_at = excluded.due_at, payload = excluded.payload,
        kind = excluded.kind, user_id = excluded.user_id, version = d.version + 1, attempts = 0, last_error = null${returning}`;
  }

  /** put() for many deadlines in one statement. */
  async putMany(tx: Tx, specs: readonly DeadlineSpec[]): Promise<void> {
    if (specs.length === 0) return;
    const rows = specs.map((d) => ({
      job_key: d.jobKey,
      kind: d.kind,
      user_id: d.userId,
      step: d.step,
      due_at: d.dueAt.toISOString(),
      payload: d.payload,
    }));
    await tx.execute(sql`
      insert into ${deadlines} as d (job_key, kind, user_id, step, due_at, version, payload)
      select u.job_key, u.kind, u.user_id, u.step, u.due_at, 1, u.payload
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as u(job_key text, kind text, user_id int, step text, due_at timestamptz, payload jsonb)
      on conflict (job_key) do update set step = excluded.step, due_at = excluded.due_at, payload = excluded.payload,
        kind = excluded.kind, user_id = excluded.user_id, version = d.version + 1, attempts = 0, last_error = null`);
  }

  /** Deletes claimed rows, each only at the version it was claimed at; answers the job keys deleted. */
  async removeMany(tx: Tx, claimed: readonly DeadlineRow[]): Promise<Set<string>> {
    if (claimed.length === 0) return new Set();
    const { rows } = (await tx.execute(sql`
      delete from ${deadlines} as d
      using jsonb_to_recordset(${JSON.stringify(claimed.map((c) => ({ job_key: c.jobKey, version: c.version })))}::jsonb) as u(job_key text, version int)
      where d.job_key = u.job_key and d.version = u.version
      returning d.job_key`)) as unknown as { rows: { job_key: string }[] };
    return new Set(rows.map((r) => r.job_key));
  }

  async remove(tx: Tx, jobKey: string): Promise<boolean> {
    const gone = await tx.delete(deadlines).where(eq(deadlines.jobKey, jobKey)).returning({ jobKey: deadlines.jobKey });
    return gone.length > 0;
  }

  /** Waits for a scheduler working on this deadline to commit, then holds it. */
  async lock(tx: Tx, jobKey: string): Promise<DeadlineRow | undefined> {
    const [row] = await tx.select().from(deadlines).where(eq(deadlines.jobKey, jobKey)).for('update');
    return row;
  }

  async find(tx: Tx, jobKey: string): Promise<DeadlineRow | undefined> {
    const [row] = await tx.select().from(deadlines).where(eq(deadlines.jobKey, jobKey));
    return row;
  }

  /**
   * Due rows no other scheduler holds, most urgent first (PRIORITIES), oldest first within each;
   * with a scope, only an admin's (process_due). One index range scan per priority. At most
   * `urgentLimit` emergencies and missed check-ins (each fired on its own); once those fill it,
   * no reminder is claimed at all: the pass is for them, and a flood of reminders is never even
   * read while an emergency or a missed check-in waits. A reminder whose check-in deadline has
   * passed is a missed check-in, claimed with those from that deadline on (alarm_due_at).
   */
  async claimDue(tx: Tx, now: Date, limits: { limit: number; urgentLimit: number }, scope: AlarmScope = {}): Promise<DeadlineRow[]> {
    const urgentRoom = Math.min(limits.limit, limits.urgentLimit);
    const at = sql`${now.toISOString()}::timestamptz`;
    const scoped = deadlineScopeSql(scope) ?? sql`true`;
    // One statement, not one a priority: an idle scheduler runs it several times a second. Each
    // priority reads its own index range (priority 1 reads alarm_due_at: alarm steps, missed steps,
    // and reminders whose check-in deadline has passed, which priority 2 then leaves out; due_at
    // <= now keeps out a row that is leased or waiting to be retried); each claims what room the
    // ones before left.
    const { rows } = (await tx.execute(sql`
      with p0 as (
        select * from ${deadlines} where priority = ${PRIORITY.emergency} and due_at <= ${at} and ${scoped}
        order by due_at limit ${urgentRoom} for update skip locked),
      p1 as (
        select * from ${deadlines} where alarm_due_at <= ${at} and due_at <= ${at} and ${scoped}
        order by alarm_due_at limit (select ${urgentRoom} - count(*) from p0) for update skip locked),
      p2 as (
        select * from ${deadlines} where priority = ${PRIORITY.reminder} and (alarm_due_at is null or alarm_due_at > ${at}) and due_at <= ${at} and ${scoped}
        order by due_at limit (select case when n >= ${urgentRoom} then 0 else ${limits.limit} - n end
          from (select (select count(*) from p0) + (select count(*) from p1) as n) claimed) for update skip locked)
      select 0 as claim_order, * from p0 union all select 1, * from p1 union all select 2, * from p2`)) as unknown as {
      rows: Record<string, unknown>[];
    };
    // Most urgent first, oldest first within each (as each range was read).
    const key = (r: Record<string, unknown>) => [
      Number(r.claim_order),
      new Date((r.claim_order === 1 ? r.alarm_due_at : r.due_at) as string).getTime(),
    ];
    return rows
      .map((r) => ({ r, k: key(r) }))
      .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1])
      .map(({ r }) => deadlineRow(r));
  }

  /**
   * Leases claimed rows until `until`: their due time moves there (no scheduler claims them
   * meanwhile) and their version on, which fences out the claim they were taken with. Answers the
   * leased rows, which retake() takes back.
   */
  async lease(tx: Tx, claimed: readonly DeadlineRow[], until: Date): Promise<DeadlineRow[]> {
    if (claimed.length === 0) return [];
    const { rows } = (await tx.execute(sql`
      update ${deadlines} as d set due_at = ${until.toISOString()}::timestamptz, version = d.version + 1
      from jsonb_to_recordset(${JSON.stringify(claimed.map((c) => ({ job_key: c.jobKey, version: c.version })))}::jsonb) as u(job_key text, version int)
      where d.job_key = u.job_key and d.version = u.version
      returning d.job_key`)) as unknown as { rows: { job_key: string }[] };
    const leased = new Set(rows.map((r) => r.job_key));
    return claimed.filter((c) => leased.has(c.jobKey)).map((c) => ({ ...c, dueAt: until, version: c.version + 1 }));
  }

  /** Takes leased rows back (waiting for a writer holding one): those still at their lease, in the order leased. */
  async retake(tx: Tx, leased: readonly DeadlineRow[]): Promise<DeadlineRow[]> {
    if (leased.length === 0) return [];
    const rows = await tx
      .select()
      .from(deadlines)
      .where(
        inArray(
          deadlines.jobKey,
          leased.map((l) => l.jobKey),
        ),
      )
      .orderBy(asc(deadlines.jobKey))
      .for('update');
    const current = new Map(rows.map((r) => [r.jobKey, r]));
    return leased.flatMap((l) => {
      const row = current.get(l.jobKey);
      return row && row.version === l.version ? [row] : [];
    });
  }

  /** Seconds since the oldest due deadline fell due (0: none due): one index probe per priority. */
  async oldestDueAgeSeconds(tx: Tx, now: Date): Promise<number> {
    const oldest = sql.join(
      PRIORITIES.map(
        (p) => sql`(select min(due_at) from ${deadlines} where priority = ${p} and due_at <= ${now.toISOString()}::timestamptz)`,
      ),
      sql`, `,
    );
    const { rows } = (await tx.execute(
      sql`select coalesce(extract(epoch from ${now.toISOString()}::timestamptz - least(${oldest})), 0)::float8 as age`,
    )) as unknown as {
      rows: { age: number }[];
    };
    return Math.max(0, Number(rows[0]?.age ?? 0));
  }

  /**
   * A claimed step failed: it is tried again after `retryAt`, and the row keeps the count of tries
   * and the last error (fenced by the claimed version, like advance()).
   */
  async failed(tx: Tx, claimed: DeadlineRow, retryAt: Date, error: string): Promise<boolean> {
    const moved = await tx
      .update(deadlines)
      .set({ dueAt: retryAt, attempts: claimed.attempts + 1, lastError: error.slice(0, 2000), version: claimed.version + 1 })
      .where(and(eq(deadlines.jobKey, claimed.jobKey), eq(deadlines.version, claimed.version)))
      .returning({ jobKey: deadlines.jobKey });
    return moved.length > 0;
  }

  /**
   * advance() for many claimed rows in one statement, each fenced by the version it was claimed
   * at. Returns the job keys written; a row missing from it moved while claimed.
   */
  async advanceMany(tx: Tx, moves: readonly { claimed: DeadlineRow; next: NextStep }[]): Promise<Set<string>> {
    if (moves.length === 0) return new Set();
    const spec = moves.map(({ claimed, next }) => ({
      job_key: claimed.jobKey,
      version: claimed.version,
      step: next.step,
      due_at: next.dueAt.toISOString(),
      payload: next.payload,
    }));
    const { rows } = (await tx.execute(sql`
      update ${deadlines} as d
      set step = u.step, due_at = u.due_at, payload = u.payload, version = u.version + 1, attempts = 0, last_error = null
      from jsonb_to_recordset(${JSON.stringify(spec)}::jsonb) as u(job_key text, version int, step text, due_at timestamptz, payload jsonb)
      where d.job_key = u.job_key and d.version = u.version
      returning d.job_key`)) as unknown as { rows: { job_key: string }[] };
    return new Set(rows.map((r) => r.job_key));
  }

  /** Writes a claimed row's next step (or deletes it) only if nobody moved it since the claim. */
  async advance(tx: Tx, claimed: DeadlineRow, next: NextStep | null): Promise<boolean> {
    const fence = and(eq(deadlines.jobKey, claimed.jobKey), eq(deadlines.version, claimed.version));
    if (!next) {
      const gone = await tx.delete(deadlines).where(fence).returning({ jobKey: deadlines.jobKey });
      return gone.length > 0;
    }
    const moved = await tx
      .update(deadlines)
      .set({ step: next.step, dueAt: next.dueAt, payload: next.payload, version: claimed.version + 1, attempts: 0, lastError: null })
      .where(fence)
      .returning({ jobKey: deadlines.jobKey });
    return moved.length > 0;
  }
}
