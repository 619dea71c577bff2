import { msg, translate } from '@lws/i18n';
import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import type { PendingEvent } from '@lws/messaging';
import type { Emit, Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { endedShifts, workers, type DeadlineRow } from '../db/schema';
import { AlarmsRepository, type ReminderRecipient } from '../alarms/alarms.repository';
import { AlarmsService, type Fired } from '../alarms/alarms.service';
import { londonTime, reminderText, voiceReminderText, workerLabel } from '../alarms/messages';
import { requestEvent, systemAlertEvent } from '../alarms/notifier';
import { dialable } from '../workers/phone';
import { checkinKey, DeadlinesRepository } from './deadlines.repository';
import { firstStep, isCheckinStep, minutesBefore, nextAfter, stepTime, stepToRun } from './checkin-steps';
import type { OwnerAnswer, OwnerView } from './shifts-owner';

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

  /** Whether the row's next step is the missed check-in (for which the owner is asked first). */
  missedAt(row: DeadlineRow, now: Date): boolean {
    return row.kind === 'checkin' && this.stepOf(row, now).step === 'missed';
  }

  /**
   * Runs a claimed check-in deadline (the scheduler holds its row). A missed check-in is first
   * held against what shifts says (`owner`): a later deadline there means an event moving it has
   * not reached escalation yet, an ended shift means its end has not; either is applied instead
   * of raising a false alarm, and an operator is told the copy was behind.
   */
  async fire(tx: Tx, emit: Emit, row: DeadlineRow, now: Date, owner: OwnerAnswer = { kind: 'unavailable' }): Promise<Fired> {
    const { due, shiftId, step } = this.stepOf(row, now);
    if (step === 'missed') {
      const stale = await this.behindOwner(tx, emit, row, due, now, owner);
      if (stale) return stale;
      const opened = await this.alarms.open(tx, emit, {
        kind: 'missed_check_in',
        userId: row.userId,
        now,
        dueAt: due,
        shiftId: shiftId || null,
      });
      // The next deadline comes with the worker's next check-in; the alarm watches until then.
      return opened ? { next: null, status: 'missed_check_in', opened: opened.alarm.id } : { next: null, status: 'alarm_already_open' };
    }
    const worker = (await this.repo.recipients(tx, [row.userId])).get(row.userId);
    for (const e of this.reminderEvents(worker, row.userId, shiftId, step, due, now)) await emit(e.subject, e.data);
    return this.afterReminder(row, step, due, now);
  }

  /**
   * A claimed row whose step is the missed check-in, with the deadline it missed, when the owner's
   * answer lets it stand (shifts holds the same deadline, or could not be asked): what the
   * scheduler opens alarms for together (MissedAlarms). Undefined for any other row, which fire() takes.
   */
  standingMiss(
    row: DeadlineRow,
    now: Date,
    owner: OwnerAnswer = { kind: 'unavailable' },
  ): { due: Date; shiftId: string | null } | undefined {
    if (row.kind !== 'checkin' || !isCheckinStep(row.step)) return undefined;
    const { due, shiftId, step } = this.stepOf(row, now);
    if (step !== 'missed' || ownerVerdict(owner, now).kind !== 'stands') return undefined;
    return { due, shiftId: shiftId || null };
  }

  /** Applies the owner's newer state when escalation's copy is behind it; undefined when the deadline stands. */
  private async behindOwner(tx: Tx, emit: Emit, row: DeadlineRow, due: Date, now: Date, owner: OwnerAnswer): Promise<Fired | undefined> {
    const verdict = ownerVerdict(owner, now);
    if (verdict.kind === 'stands') return undefined;
    const view = verdict.view;
    const label = workerLabel(view.name ?? null, row.userId);
    const alert = async (code: string, details: string) => {
      const e = systemAlertEvent(code, details, now, row.userId);
      await emit(e.subject, e.data);
    };
    if (verdict.kind === 'ended') {
      const shiftId = row.payload.shiftId;
      if (shiftId) await tx.insert(endedShifts).values({ shiftId, userId: row.userId, endedAt: now }).onConflictDoNothing();
      await tx
        .update(workers)
        .set({ onShift: false, shiftId: null, nextCheckInAt: null, deadlineAsOf: null })
        .where(eq(workers.userId, row.userId));
      await alert(
        'deadline_reconciled',
        `${label} had ended the shift, but escalation had not heard yet: no missed check-in alarm raised for ${londonTime(due)}`,
      );
      return { next: null, status: 'off_shift_at_owner' };
    }
    const ownerDue = verdict.due;
    await tx
      .update(workers)
      .set({ onShift: true, shiftId: verdict.shiftId, nextCheckInAt: ownerDue })
      .where(eq(workers.userId, row.userId));
    await alert(
      'deadline_reconciled',
      `${label} had checked in (next check-in ${londonTime(ownerDue)}), but escalation had not heard yet: no missed check-in alarm raised for ${londonTime(due)}`,
    );
    const first = firstStep(ownerDue, now);
    return {
      next: { step: first.step, dueAt: first.at, payload: { dueAt: ownerDue.toISOString(), shiftId: verdict.shiftId } },
      status: 'deadline_moved_at_owner',
    };
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
    const language = worker?.language ?? null;
    const body = reminderText(minutes, due, false, language);
    const phone = dialable(worker?.phone);
    const since = stepTime(step, due).toISOString();
    // Written, and for a call spoken, in the worker's language.
    const about = { userId, since, ...(language ? { language } : {}) };
    // A visit type may want its reminders by SMS (which the PIN answers) whatever the organisation's channels.
    const channels = worker?.smsToo ? [...new Set([...this.settings.reminderChannels, 'sms' as const])] : this.settings.reminderChannels;
    const events: PendingEvent[] = phone
      ? channels.map((channel) =>
          requestEvent({
            channel,
            toPhone: phone,
            purpose: step,
            body: channel === 'sms' ? reminderText(minutes, due, true, language) : body,
            ...about,
          }),
        )
      : [
          systemAlertEvent(
            'worker_phone_missing',
            `No phone number known for ${worker?.name ?? `worker #${userId}`}: the ${minutes} minute reminder went by push only`,
            now,
            userId,
          ),
        ];
    events.push(
      requestEvent({
        channel: 'push',
        toUserId: userId,
        purpose: step,
        title: translate(language, msg('Check-in due soon')),
        body,
        ...about,
      }),
    );
    // A team may add a call at T-2 that takes the PIN on the keypad: a check-in without a data signal.
    if (phone && step === 'reminder_2min' && worker?.voiceReminder) {
      events.push(requestEvent({ channel: 'voice', toPhone: phone, purpose: step, body: voiceReminderText(due, language), ...about }));
    }
    events.push({
      subject: 'escalation.reminder.fired.v1',
      data: { userId, shiftId, dueAt: due.toISOString(), minutesBefore: minutes, firedAt: now.toISOString() },
    });
    return events;
  }
}

/**
 * What shifts' answer says of a missed deadline: it stands (shifts holds it too, or could not be
 * asked: a false alarm is better than a silent one), the shift ended, or the worker checked in and
 * the deadline moved. The one reading of the answer for both the batched and the one-by-one path.
 */
function ownerVerdict(
  owner: OwnerAnswer,
  now: Date,
): { kind: 'stands' } | { kind: 'ended'; view: OwnerView } | { kind: 'moved'; view: OwnerView; due: Date; shiftId: string } {
  if (owner.kind !== 'known') return { kind: 'stands' };
  const view = owner.view;
  if (!view.onShift || !view.shiftId || !view.nextCheckInAt) return { kind: 'ended', view };
  const due = new Date(view.nextCheckInAt);
  return due.getTime() <= now.getTime() ? { kind: 'stands' } : { kind: 'moved', view, due, shiftId: view.shiftId };
}
