import { Inject, Injectable } from '@nestjs/common';
import type { PendingEvent } from '@lws/messaging';
import type { Emit, Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import type { DeadlineRow } from '../db/schema';
import { AlarmsRepository } from '../alarms/alarms.repository';
import { AlarmsService, type Fired } from '../alarms/alarms.service';
import { reminderText } from '../alarms/messages';
import { requestEvent, systemAlertEvent } from '../alarms/notifier';
import { dialable } from '../workers/phone';
import { checkinKey, DeadlinesRepository } from './deadlines.repository';
import { firstStep, isCheckinStep, minutesBefore, nextAfter, stepToRun } from './checkin-steps';

/** The `checkin:<userId>` deadline: reminders at T-5 and T-2, then the missed check-in at T. */
@Injectable()
export class CheckinsService {
  constructor(
    private readonly deadlines: DeadlinesRepository,
    private readonly alarms: AlarmsService,
    private readonly repo: AlarmsRepository,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {}

  /** (Re)schedules deadline `due`, from its first step still ahead of `now`. Returns when that step is due. */
  async schedule(tx: Tx, userId: number, shiftId: string, due: Date, now: Date): Promise<Date> {
    const first = firstStep(due, now);
    await this.deadlines.put(tx, {
      jobKey: checkinKey(userId),
      kind: 'checkin',
      userId,
      step: first.step,
      dueAt: first.at,
      payload: { dueAt: due.toISOString(), shiftId },
    });
    return first.at;
  }

  cancel(tx: Tx, userId: number): Promise<boolean> {
    return this.deadlines.remove(tx, checkinKey(userId));
  }

  /** Runs a claimed check-in deadline (the scheduler holds its row). */
  async fire(tx: Tx, emit: Emit, row: DeadlineRow, now: Date): Promise<Fired> {
    const { due, shiftId, step } = this.stepOf(row, now);
    if (step === 'missed') {
      const alarmId = await this.alarms.open(tx, emit, { kind: 'missed_check_in', userId: row.userId, now, dueAt: due, shiftId: shiftId || null });
      // The next deadline comes with the worker's next check-in; the alarm watches until then.
      return { next: null, status: alarmId ? 'missed_check_in' : 'alarm_already_open' };
    }
    const worker = await this.repo.worker(tx, row.userId);
    for (const e of this.reminderEvents(worker, row.userId, shiftId, step, due, now)) await emit(e.subject, e.data);
    return this.afterReminder(row, step, due, now);
  }

  /**
   * The reminder a claimed row sends at `now`, computed without touching the database, for the
   * scheduler's batched path: its events and the row's next step. Null when the row is not a
   * plain reminder (a missed check-in opens an alarm, which goes through fire()).
   */
  planReminder(row: DeadlineRow, worker: ReminderRecipient | undefined, now: Date): { events: PendingEvent[]; fired: Fired } | null {
    const { due, shiftId, step } = this.stepOf(row, now);
    if (step === 'missed') return null;
    return { events: this.reminderEvents(worker, row.userId, shiftId, step, due, now), fired: this.afterReminder(row, step, due, now) };
  }

  private stepOf(row: DeadlineRow, now: Date) {
    const due = new Date(row.payload.dueAt ?? row.dueAt);
    const shiftId = row.payload.shiftId ?? '';
    if (!isCheckinStep(row.step)) throw new Error(`unknown check-in step ${row.step}`);
    return { due, shiftId, step: stepToRun(row.step, due, now) };
  }

  private afterReminder(row: DeadlineRow, step: 'reminder_5min' | 'reminder_2min', due: Date, now: Date): Fired {
    const next = nextAfter(step, due, now);
    return { next: { step: next.step, dueAt: next.at, payload: row.payload }, status: `${step}_sent` };
  }

  /** In the order they are written: texts (or the missing-phone alert), the push, then reminder.fired. */
  private reminderEvents(
    worker: ReminderRecipient | undefined,
    userId: number,
    shiftId: string,
    step: 'reminder_5min' | 'reminder_2min',
    due: Date,
    now: Date,
  ): PendingEvent[] {
    const minutes = minutesBefore(step);
    const body = reminderText(minutes, due);
    const phone = dialable(worker?.phone);
    const events: PendingEvent[] = phone
      ? this.settings.reminderChannels.map((channel) => requestEvent({ channel, toPhone: phone, purpose: step, body, userId }))
      : [systemAlertEvent('worker_phone_missing', `No phone number known for ${worker?.name ?? `worker #${userId}`}: the ${minutes} minute reminder went by push only`, now, userId)];
    events.push(requestEvent({ channel: 'push', toUserId: userId, purpose: step, title: 'Check-in due soon', body, userId }));
    events.push({ subject: 'escalation.reminder.fired.v1', data: { userId, shiftId, dueAt: due.toISOString(), minutesBefore: minutes, firedAt: now.toISOString() } });
    return events;
  }
}

/** What a reminder needs to know of its worker. */
export type ReminderRecipient = { name: string | null; phone: string | null };
