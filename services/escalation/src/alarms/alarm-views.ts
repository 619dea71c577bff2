import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { UnitOfWork, type Tx } from '@lws/platform';
import type { AlarmMessageRow, AlarmRow } from '../db/schema';
import { ownsNothing } from './alarm-scope';
import { AlarmsRepository } from './alarms.repository';

export type AlarmView = CommandMap['escalation.alarm.list.v1']['reply']['alarms'][number];
export type WorkerAlarmView = CommandMap['escalation.alarm.mark_safe.v1']['reply']['alarm'];
export type AlarmMessageView = AlarmView['messages'][number];

/** Alarms as the monitors' list and the worker's own screen show them. */
@Injectable()
export class AlarmViews {
  constructor(
    private readonly repo: AlarmsRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
  ) {}

  async list(req: CommandMap['escalation.alarm.list.v1']['request']): Promise<CommandMap['escalation.alarm.list.v1']['reply']> {
    const after = req.cursor ? decodeCursor(req.cursor) : undefined;
    return this.uow.run(async (tx) => {
      if (ownsNothing(req)) return { alarms: [] };
      const rows = await this.repo.page(tx, req.openOnly, req.limit + 1, after, req);
      const page = rows.slice(0, req.limit);
      const history = await this.repo.history(
        tx,
        page.map((r) => r.id),
      );
      const names = await this.names(tx, page);
      const messages = await this.messagesOf(
        tx,
        page.map((r) => r.id),
      );
      const alarmsOut = page.map((r) => toView(r, history.get(r.id) ?? [], names, messages.get(r.id) ?? []));
      const last = page[page.length - 1];
      return { alarms: alarmsOut, ...(rows.length > req.limit && last ? { nextCursor: encodeCursor(last) } : {}) };
    });
  }

  /** One alarm as the monitors' list shows it. */
  async view(tx: Tx, alarm: AlarmRow): Promise<AlarmView> {
    const history = await this.repo.history(tx, [alarm.id]);
    const messages = await this.messagesOf(tx, [alarm.id]);
    return toView(alarm, history.get(alarm.id) ?? [], await this.names(tx, [alarm]), messages.get(alarm.id) ?? []);
  }

  /** The threads of these alarms, oldest message first, each sender named (a machine by its token). */
  async messagesOf(tx: Tx, alarmIds: string[]): Promise<Map<string, AlarmMessageView[]>> {
    const rows = await this.repo.messages(tx, alarmIds);
    const names = await this.namesOf(tx, [...new Set(rows.map((r) => r.byUserId))]);
    const threads = new Map<string, AlarmMessageView[]>();
    for (const r of rows) threads.set(r.alarmId, [...(threads.get(r.alarmId) ?? []), messageView(r, names)]);
    return threads;
  }

  /**
   * What the worker sees: nothing after the moment they said they were safe (under duress the alarm
   * goes on escalating, and their screen must look exactly as if it had stopped).
   */
  async workerView(tx: Tx, alarm: AlarmRow): Promise<WorkerAlarmView> {
    const until = alarm.workerSafeAt?.getTime() ?? Infinity;
    const updates = (await this.repo.workerUpdates(tx, alarm.id)).filter((u) => u.at.getTime() <= until);
    const acknowledged = alarm.acknowledgedAt && alarm.acknowledgedAt.getTime() <= until ? alarm.acknowledgedAt : null;
    const ackName =
      acknowledged && alarm.acknowledgedBy !== null
        ? (alarm.acknowledgedVia ?? (await this.namesOf(tx, [alarm.acknowledgedBy])).get(alarm.acknowledgedBy))
        : undefined;
    return {
      id: alarm.id,
      // Under duress, a monitor's acknowledgement after "I'm safe" is not shown either.
      state: alarm.state === 'acknowledged' && !acknowledged ? 'open' : alarm.state,
      openedAt: alarm.openedAt.toISOString(),
      ...(acknowledged ? { acknowledgedAt: acknowledged.toISOString() } : {}),
      ...(ackName ? { acknowledgedByName: ackName } : {}),
      ...(alarm.workerSafeAt ? { workerSafeAt: alarm.workerSafeAt.toISOString() } : {}),
      updates: updates.map((u) => ({ at: u.at.toISOString(), text: u.text, ...(u.name ? { name: u.name } : {}) })),
    };
  }

  /** A person as the alarm's history names them: by name (one escalation has not heard of yet: "a monitor"). */
  async personName(tx: Tx, userId: number): Promise<string> {
    return (await this.namesOf(tx, [userId])).get(userId) ?? 'a monitor';
  }

  /** The names of the people who acknowledged and resolved these alarms, as escalation knows them. */
  private names(tx: Tx, alarms: AlarmRow[]): Promise<Map<number, string>> {
    return this.namesOf(
      tx,
      alarms.flatMap((a) => [a.acknowledgedBy, a.resolvedBy].filter((id): id is number => id !== null)),
    );
  }

  private async namesOf(tx: Tx, userIds: number[]): Promise<Map<number, string>> {
    const people = await this.repo.people(tx, userIds);
    return new Map([...people].flatMap(([id, p]) => (p.name ? [[id, p.name] as const] : [])));
  }
}

function messageView(m: AlarmMessageRow, names: Map<number, string>): AlarmMessageView {
  const name = m.via ?? names.get(m.byUserId);
  return {
    id: m.id,
    from: m.fromWorker ? 'worker' : 'monitor',
    byUserId: m.byUserId,
    ...(name ? { byName: name } : {}),
    text: m.text,
    at: m.at.toISOString(),
    ...(m.seenAt ? { seenAt: m.seenAt.toISOString() } : {}),
  };
}

function toView(a: AlarmRow, history: string[], names: Map<number, string>, messages: AlarmMessageView[]): AlarmView {
  const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
  const view: AlarmView = {
    id: a.id,
    userId: a.userId,
    kind: a.kind,
    state: a.state,
    openedAt: a.openedAt.toISOString(),
    history,
    messages,
  };
  if (a.workerName) view.workerName = a.workerName;
  if (a.location) view.location = a.location;
  if (a.dueAt) view.dueAt = iso(a.dueAt);
  if (a.acknowledgedBy !== null) view.acknowledgedBy = a.acknowledgedBy;
  if (a.acknowledgedAt) view.acknowledgedAt = iso(a.acknowledgedAt);
  if (a.acknowledgedBy !== null && names.has(a.acknowledgedBy)) view.acknowledgedByName = names.get(a.acknowledgedBy);
  // A machine is named by its token: "Acknowledged by Northern ARC".
  if (a.acknowledgedVia) view.acknowledgedByName = view.acknowledgedViaToken = a.acknowledgedVia;
  if (a.resolvedBy !== null) view.resolvedBy = a.resolvedBy;
  if (a.resolvedBy !== null && names.has(a.resolvedBy)) view.resolvedByName = names.get(a.resolvedBy);
  if (a.resolvedVia) view.resolvedByName = view.resolvedViaToken = a.resolvedVia;
  if (a.resolvedAt) view.resolvedAt = iso(a.resolvedAt);
  if (a.verdict) view.verdict = a.verdict;
  if (a.severity) view.severity = a.severity;
  if (a.reason) view.reason = a.reason;
  if (a.note) view.note = a.note;
  if (a.lateCheckInAt) view.lateCheckInAt = iso(a.lateCheckInAt);
  if (a.duress) view.duress = true;
  // A cancel made with the duress PIN is no sign of safety: monitors read it in the history.
  if (a.workerSafeAt && !a.safeUnderDuress) view.workerSafeAt = iso(a.workerSafeAt);
  if (a.shiftNote) view.shiftNote = a.shiftNote;
  if (a.visit) {
    const { id, where, startedAt, endsAt, hasNote, typeId, typeName } = a.visit;
    view.visit = { id, where, startedAt, endsAt, hasNote, ...(typeId && typeName ? { typeId, typeName } : {}) };
  }
  if (a.lastPosition) {
    const p = a.lastPosition;
    view.lastPosition = { lat: p.lat, lng: p.lng, at: p.at, ...(p.accuracyM !== undefined ? { accuracyM: p.accuracyM } : {}) };
  }
  return view;
}

function encodeCursor(a: AlarmRow): string {
  return Buffer.from(`${a.openedAt.toISOString()}|${a.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { openedAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const openedAt = new Date(at ?? '');
  if (Number.isNaN(openedAt.getTime()) || !/^[0-9a-f-]{36}$/.test(id ?? '')) throw new RpcError(400, 'Invalid cursor', { field: 'cursor' });
  return { openedAt, id: id! };
}
