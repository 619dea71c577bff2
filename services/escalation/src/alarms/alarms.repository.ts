import { Injectable } from '@nestjs/common';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { insertRows, type Tx } from '@lws/platform';
import {
  alarmEvents,
  alarmMessages,
  alarms,
  joinedEmergencies,
  teams,
  workerContacts,
  workers,
  type AlarmMessageRow,
  type AlarmRow,
  type WorkerRow,
} from '../db/schema';
import { alarmScopeSql, type AlarmScope } from './alarm-scope';
import type { TeamPolicy } from './policy';
import type { WorkerLine } from './messages';

/** What a reminder needs to know of its worker. */
export interface ReminderRecipient {
  name: string | null;
  phone: string | null;
  /** Their team's keypad PIN call 2 minutes before the deadline. */
  voiceReminder?: boolean;
  /** The language their reminders are written in; null: English. */
  language?: string | null;
  /** On a visit whose type sends its reminders by SMS too, whatever the organisation's channels. */
  smsToo?: boolean;
}

export interface Contact {
  phone: string;
  name?: string;
}

@Injectable()
export class AlarmsRepository {
  async find(tx: Tx, id: string): Promise<AlarmRow | undefined> {
    const [row] = await tx.select().from(alarms).where(eq(alarms.id, id));
    return row;
  }

  /**
   * What a press of the emergency button meets, in one round trip (it is on an emergency's path):
   * whether it already joined an alarm, whether an alarm is its own, and the worker's newest
   * emergency alarm still escalating (not resolved, steps not stopped), never one raised by the
   * duress PIN: the one a further press of theirs joins.
   */
  async pressFacts(
    tx: Tx,
    emergencyId: string,
    userId: number,
  ): Promise<{ joinedBefore: boolean; own: boolean; escalatingId: string | null }> {
    const { rows } = (await tx.execute(sql`
      select exists (select 1 from ${joinedEmergencies} where emergency_id = ${emergencyId}) as joined_before,
        exists (select 1 from ${alarms} where emergency_id = ${emergencyId}) as own,
        (select id from ${alarms} where user_id = ${userId} and kind = 'emergency' and not duress and state <> 'resolved'
           and steps_stopped_reason is null order by opened_at desc limit 1) as escalating_id`)) as unknown as {
      rows: { joined_before: boolean; own: boolean; escalating_id: string | null }[];
    };
    const [r] = rows;
    return { joinedBefore: r.joined_before, own: r.own, escalatingId: r.escalating_id };
  }

  /** Lock order everywhere: the alarm's deadline row first, then the alarm row. */
  async lock(tx: Tx, id: string): Promise<AlarmRow | undefined> {
    const [row] = await tx.select().from(alarms).where(eq(alarms.id, id)).for('update');
    return row;
  }

  async update(tx: Tx, id: string, set: Partial<AlarmRow>): Promise<void> {
    await tx.update(alarms).set(set).where(eq(alarms.id, id));
  }

  /** One line of the alarm's history; `workerText`: the same moment as the worker's own screen tells it. */
  async note(tx: Tx, alarmId: string, at: Date, text: string, workerText?: WorkerLine): Promise<void> {
    const worker =
      typeof workerText === 'string' ? { workerText } : { workerText: workerText?.text ?? null, workerName: workerText?.name ?? null };
    await tx.insert(alarmEvents).values({ alarmId, at, text, ...worker });
  }

  /** Lines of many alarms' histories in one statement, in the order given. */
  async notes(tx: Tx, rows: readonly (typeof alarmEvents.$inferInsert)[]): Promise<void> {
    await insertRows(tx, alarmEvents, rows);
  }

  /** What the worker's screen says has happened, oldest first. */
  workerUpdates(tx: Tx, alarmId: string): Promise<{ at: Date; text: string; name: string | null }[]> {
    return tx
      .select({ at: alarmEvents.at, text: sql<string>`${alarmEvents.workerText}`, name: alarmEvents.workerName })
      .from(alarmEvents)
      .where(and(eq(alarmEvents.alarmId, alarmId), isNotNull(alarmEvents.workerText)))
      .orderBy(asc(alarmEvents.seq));
  }

  /** A worker's emergency alarms not yet resolved, newest first; never one raised by the duress PIN. */
  ownEmergencies(tx: Tx, userId: number): Promise<AlarmRow[]> {
    return tx
      .select()
      .from(alarms)
      .where(and(eq(alarms.userId, userId), eq(alarms.kind, 'emergency'), ne(alarms.state, 'resolved'), eq(alarms.duress, false)))
      .orderBy(desc(alarms.openedAt), desc(alarms.id));
  }

  /** Missed-check-in alarms of a worker whose steps may still run. */
  activeMissed(tx: Tx, userId: number): Promise<AlarmRow[]> {
    return tx
      .select()
      .from(alarms)
      .where(
        and(eq(alarms.userId, userId), eq(alarms.kind, 'missed_check_in'), ne(alarms.state, 'resolved'), isNull(alarms.stepsStoppedReason)),
      )
      .orderBy(asc(alarms.openedAt));
  }

  async history(tx: Tx, ids: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await tx.select().from(alarmEvents).where(inArray(alarmEvents.alarmId, ids)).orderBy(asc(alarmEvents.seq));
    for (const r of rows) out.get(r.alarmId)?.push(r.text);
    return out;
  }

  /** Newest first; the cursor is the last row's (opened_at, id). `scope`: only an admin's alarms. */
  page(tx: Tx, openOnly: boolean, limit: number, after?: { openedAt: Date; id: string }, scope: AlarmScope = {}): Promise<AlarmRow[]> {
    const conditions = [
      openOnly ? ne(alarms.state, 'resolved') : undefined,
      alarmScopeSql(scope),
      after ? or(lt(alarms.openedAt, after.openedAt), and(eq(alarms.openedAt, after.openedAt), lt(alarms.id, after.id))) : undefined,
    ].filter((c) => c !== undefined);
    return tx
      .select()
      .from(alarms)
      .where(conditions.length ? and(...conditions) : sql`true`)
      .orderBy(desc(alarms.openedAt), desc(alarms.id))
      .limit(limit);
  }

  /** A team escalation has heard of and that still exists, as its alarms freeze it. */
  async team(tx: Tx, teamId: number): Promise<(TeamPolicy & { id: number }) | undefined> {
    const [row] = await tx
      .select()
      .from(teams)
      .where(and(eq(teams.id, teamId), isNull(teams.deletedAt)));
    return row
      ? {
          id: row.id,
          monitors: row.monitors,
          escalationPolicy: row.escalationPolicy,
          emergencyNumbers: row.emergencyNumbers,
          onCallSchedule: row.onCallSchedule,
          visitTypes: row.visitTypes,
        }
      : undefined;
  }

  /** Users by id (monitors and deputies): name, away time, deleted. */
  async people(tx: Tx, userIds: number[]): Promise<Map<number, Pick<WorkerRow, 'name' | 'awayUntil' | 'deletedAt'>>> {
    if (userIds.length === 0) return new Map();
    const rows = await tx
      .select({ userId: workers.userId, name: workers.name, awayUntil: workers.awayUntil, deletedAt: workers.deletedAt })
      .from(workers)
      .where(inArray(workers.userId, [...new Set(userIds)]));
    return new Map(rows.map((r) => [r.userId, r]));
  }

  /** Many workers in one statement (a pass's missed check-ins). */
  async workersOf(tx: Tx, userIds: readonly number[]): Promise<Map<number, WorkerRow>> {
    if (userIds.length === 0) return new Map();
    const rows = await tx
      .select()
      .from(workers)
      .where(inArray(workers.userId, [...new Set(userIds)]));
    return new Map(rows.map((r) => [r.userId, r]));
  }

  /** Many teams in one statement, as team() reads one. */
  async teamsOf(tx: Tx, teamIds: readonly number[]): Promise<Map<number, TeamPolicy & { id: number }>> {
    if (teamIds.length === 0) return new Map();
    const rows = await tx
      .select()
      .from(teams)
      .where(and(inArray(teams.id, [...new Set(teamIds)]), isNull(teams.deletedAt)));
    return new Map(
      rows.map((row) => [
        row.id,
        {
          id: row.id,
          monitors: row.monitors,
          escalationPolicy: row.escalationPolicy,
          emergencyNumbers: row.emergencyNumbers,
          onCallSchedule: row.onCallSchedule,
          visitTypes: row.visitTypes,
        },
      ]),
    );
  }

  /** The step each of many alarms is at, in one statement. */
  async setStepIndexes(tx: Tx, changes: readonly { id: string; stepIndex: number }[]): Promise<void> {
    if (changes.length === 0) return;
    await tx.execute(sql`
      update ${alarms} as a set step_index = u.step_index
      from jsonb_to_recordset(${JSON.stringify(changes.map((c) => ({ id: c.id, step_index: c.stepIndex })))}::jsonb) as u(id uuid, step_index int)
      where a.id = u.id`);
  }

  /** The messages of these alarms' threads, oldest first. */
  async messages(tx: Tx, alarmIds: string[]): Promise<AlarmMessageRow[]> {
    if (alarmIds.length === 0) return [];
    return tx.select().from(alarmMessages).where(inArray(alarmMessages.alarmId, alarmIds)).orderBy(alarmMessages.at, alarmMessages.id);
  }

  async worker(tx: Tx, userId: number): Promise<WorkerRow | undefined> {
    const [row] = await tx.select().from(workers).where(eq(workers.userId, userId));
    return row;
  }

  /**
   * Name and phone of many workers in one statement (the scheduler's batched reminders), and
   * whether their team wants the keypad PIN call at T-2.
   */
  async recipients(tx: Tx, userIds: readonly number[]): Promise<Map<number, ReminderRecipient>> {
    const found = new Map<number, ReminderRecipient>();
    if (userIds.length === 0) return found;
    const { rows } = (await tx.execute(sql`
      select w.user_id, w.name, w.phone, w.language, coalesce(t.voice_reminder, false) as voice_reminder,
        coalesce((w.visit->>'smsToo')::boolean, false) as sms_too from ${workers} w
      left join ${teams} t on t.id = w.team_id and t.deleted_at is null
      where w.user_id in (select value::int from jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))`)) as unknown as {
      rows: {
        user_id: number;
        name: string | null;
        phone: string | null;
        language: string | null;
        voice_reminder: boolean;
        sms_too: boolean;
      }[];
    };
    for (const r of rows)
      found.set(Number(r.user_id), {
        name: r.name,
        phone: r.phone,
        language: r.language,
        voiceReminder: r.voice_reminder === true,
        ...(r.sms_too === true ? { smsToo: true } : {}),
      });
    return found;
  }

  async contactsOf(tx: Tx, userId: number): Promise<{ phone: string | null; name: string | null }[]> {
    return tx
      .select({ phone: workerContacts.phone, name: workerContacts.name })
      .from(workerContacts)
      .where(and(eq(workerContacts.userId, userId), eq(workerContacts.deleted, false)))
      .orderBy(asc(workerContacts.contactId));
  }
}
