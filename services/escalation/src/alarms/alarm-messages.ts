import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { msg, translate } from '@lws/i18n';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { alarmMessages, alarms, deadlines, type AlarmMessageRow, type AlarmRow, type DeadlineRow } from '../db/schema';
import { alarmKey, DeadlinesRepository } from '../deadlines/deadlines.repository';
import { dialable } from '../workers/phone';
import { ownsAlarm } from './alarm-scope';
import { resolved } from './alarm-state';
import { labelOf, teamOf } from './alarm-steps';
import { AlarmViews, type AlarmView } from './alarm-views';
import type { Fired } from './alarms.service';
import { AlarmsRepository } from './alarms.repository';
import { english } from './messages';
import { requestEvent } from './notifier';

type Send = CommandMap['escalation.alarm.send_message.v1'];
type Thread = CommandMap['escalation.alarm.worker_thread.v1'];
type Reply = CommandMap['escalation.alarm.worker_message.v1'];

/** A monitor's message the worker's screen has not shown within this long goes by SMS too. */
const SMS_AFTER_MS = 60_000;
export const messageKey = (messageId: string) => `message:${messageId}`;

export const DURESS_NO_MESSAGE =
  'No message is sent to the worker during a duress alarm, nor after a cancel with the duress PIN: whoever holds their phone would read it';

/** Whether the worker may be written to about this alarm: open, and nothing of it is the duress PIN's. */
const talkable = (a: Pick<AlarmRow, 'state' | 'duress' | 'safeUnderDuress'>) => !resolved(a) && !a.duress && !a.safeUnderDuress;

/**
 * Messages during an alarm: the monitor handling it and the worker exchange short texts. A
 * monitor's message goes by push at once and by SMS when the worker's screen has not shown it
 * within a minute; the worker's answer reaches the alarm panel live. Each is a line on the alarm's
 * history. Nothing is ever written to the worker about a duress alarm.
 */
@Injectable()
export class AlarmMessages {
  constructor(
    private readonly repo: AlarmsRepository,
    private readonly deadlines: DeadlinesRepository,
    private readonly views: AlarmViews,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async send(req: Send['request']): Promise<{ alarm: AlarmView }> {
    return this.uow.run(async (tx, emit) => {
      await this.deadlines.lock(tx, alarmKey(req.alarmId));
      const alarm = await this.repo.lock(tx, req.alarmId);
      if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
      if (resolved(alarm)) throw new RpcError(409, 'The alarm is resolved: messages go only while it is open', { code: 'alarm_resolved' });
      if (alarm.duress || alarm.safeUnderDuress) throw new RpcError(409, DURESS_NO_MESSAGE, { code: 'duress' });
      const now = this.clock();
      const by = req.viaToken ?? (await this.views.personName(tx, req.byUserId));
      const message = await this.write(tx, emit, alarm, {
        fromWorker: false,
        byUserId: req.byUserId,
        via: req.viaToken ?? null,
        text: req.text,
        at: now,
      });
      await this.repo.note(tx, alarm.id, now, `Message to the worker from ${by}: ${req.text}`);
      const worker = (await this.repo.recipients(tx, [alarm.userId])).get(alarm.userId);
      const language = worker?.language ?? null;
      const push = requestEvent({
        channel: 'push',
        toUserId: alarm.userId,
        userId: alarm.userId,
        alarmId: alarm.id,
        purpose: 'alarm_message',
        title: translate(language, msg('Message from {{name}}'), { name: by }),
        body: req.text,
        since: now.toISOString(),
        ...(language ? { language } : {}),
      });
      await emit(push.subject, push.data);
      const smsAt = new Date(now.getTime() + SMS_AFTER_MS);
      await this.deadlines.put(tx, {
        jobKey: messageKey(message.id),
        kind: 'message',
        userId: alarm.userId,
        step: 'sms',
        dueAt: smsAt,
        payload: { messageId: message.id, alarmId: alarm.id, dueAt: smsAt.toISOString() },
      });
      return { alarm: await this.views.view(tx, alarm) };
    });
  }

  async thread(req: Thread['request']): Promise<Thread['reply']> {
    return this.uow.run(async (tx) => {
      const alarm = await this.workerAlarm(tx, req.userId);
      return alarm ? { thread: await this.threadOf(tx, alarm) } : {};
    });
  }

  /** The worker's answer: to the alarm panel live, and to the monitor who took the alarm by push. */
  async reply(req: Reply['request']): Promise<Reply['reply']> {
    return this.uow.run(async (tx, emit) => {
      const alarm = await this.workerAlarm(tx, req.userId);
      if (!alarm) throw new RpcError(409, 'There is no open alarm to answer', { code: 'no_open_alarm' });
      const now = this.clock();
      await this.write(tx, emit, alarm, { fromWorker: true, byUserId: req.userId, via: null, text: req.text, at: now });
      await this.repo.note(tx, alarm.id, now, `Message from the worker: ${req.text}`);
      // Answering shows they read what came before: no SMS of it follows.
      await this.markSeen(tx, alarm.id, now);
      if (alarm.acknowledgedBy !== null && !alarm.acknowledgedVia) {
        // In the monitor's own language, which notifications knows.
        const title = { text: msg('Message from {{name}}'), values: { name: labelOf(alarm) } };
        const push = requestEvent({
          channel: 'push',
          toUserId: alarm.acknowledgedBy,
          userId: alarm.userId,
          alarmId: alarm.id,
          purpose: 'alarm_message',
          title: english(title),
          titleText: title,
          body: req.text,
          since: now.toISOString(),
        });
        await emit(push.subject, push.data);
      }
      return { thread: await this.threadOf(tx, alarm) };
    });
  }

  /** The worker's screen showed the thread: no SMS follows the monitors' messages so far. */
  async seen(req: Thread['request']): Promise<Thread['reply']> {
    return this.uow.run(async (tx) => {
      const alarm = await this.workerAlarm(tx, req.userId);
      if (!alarm) return {};
      await this.markSeen(tx, alarm.id, this.clock());
      return { thread: await this.threadOf(tx, alarm) };
    });
  }

  /** Runs a claimed message timer: the SMS of a monitor's message the worker has not seen. */
  async fire(tx: Tx, emit: Emit, row: DeadlineRow, now: Date): Promise<Fired> {
    const [message] = row.payload.messageId
      ? await tx.select().from(alarmMessages).where(eq(alarmMessages.id, row.payload.messageId)).for('update')
      : [];
    if (!message || message.seenAt) return { next: null, status: 'message_seen' };
    const alarm = await this.repo.find(tx, message.alarmId);
    if (!alarm || !talkable(alarm)) return { next: null, status: 'alarm_closed' };
    const worker = (await this.repo.recipients(tx, [alarm.userId])).get(alarm.userId);
    const phone = dialable(worker?.phone);
    if (!phone) return { next: null, status: 'no_phone' };
    const language = worker?.language ?? null;
    const by = message.via ?? (await this.views.personName(tx, message.byUserId));
    const sms = requestEvent({
      channel: 'sms',
      toPhone: phone,
      userId: alarm.userId,
      alarmId: alarm.id,
      purpose: 'alarm_message',
      body: translate(language, msg('LWS: message from {{name}} about your alarm: {{text}} Open LWS to answer.'), {
        name: by,
        text: message.text,
      }),
      since: now.toISOString(),
      ...(language ? { language } : {}),
    });
    await emit(sms.subject, sms.data);
    return { next: null, status: 'message_sms_sent' };
  }

  private async write(
    tx: Tx,
    emit: Emit,
    alarm: AlarmRow,
    m: Pick<AlarmMessageRow, 'fromWorker' | 'byUserId' | 'via' | 'text' | 'at'>,
  ): Promise<AlarmMessageRow> {
    const [row] = await tx
      .insert(alarmMessages)
      .values({ id: randomUUID(), alarmId: alarm.id, ...m })
      .returning();
    await emit('escalation.alarm.message_sent.v1', {
      messageId: row.id,
      alarmId: alarm.id,
      userId: alarm.userId,
      from: m.fromWorker ? 'worker' : 'monitor',
      byUserId: m.byUserId,
      text: m.text,
      at: m.at.toISOString(),
      ...teamOf(alarm.teamId),
      ...(m.via ? { viaToken: m.via } : {}),
    });
    return row;
  }

  /** Marks the monitors' messages seen; their SMS timers go first, in the scheduler's lock order. */
  private async markSeen(tx: Tx, alarmId: string, at: Date): Promise<void> {
    const unseen = and(eq(alarmMessages.alarmId, alarmId), eq(alarmMessages.fromWorker, false), isNull(alarmMessages.seenAt));
    await tx.execute(sql`
      delete from ${deadlines} where ${deadlines.jobKey} in (select 'message:' || ${alarmMessages.id} from ${alarmMessages} where ${unseen})`);
    await tx.update(alarmMessages).set({ seenAt: at }).where(unseen);
  }

  /** The worker's newest alarm they may talk about (never a duress alarm, nor one cancelled under duress). */
  private async workerAlarm(tx: Tx, userId: number): Promise<AlarmRow | undefined> {
    const [alarm] = await tx
      .select()
      .from(alarms)
      .where(and(eq(alarms.userId, userId), ne(alarms.state, 'resolved'), eq(alarms.duress, false), eq(alarms.safeUnderDuress, false)))
      .orderBy(desc(alarms.openedAt))
      .limit(1);
    return alarm;
  }

  private async threadOf(tx: Tx, alarm: AlarmRow) {
    const messages = await this.views.messagesOf(tx, [alarm.id]);
    return { alarmId: alarm.id, kind: alarm.kind, messages: messages.get(alarm.id) ?? [] };
  }
}
