import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { CommandMap, EventMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, LOGGER, UnitOfWork, type Clock, type Emit, type Logger, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { alarms, calls, notificationRequests, type AlarmKind, type AlarmRow, type CallRow, type DeadlineRow } from '../db/schema';
import { alarmKey, DeadlinesRepository, type NextStep } from '../deadlines/deadlines.repository';
import { dialable } from '../workers/phone';
import { ownsAlarm, ownsNothing } from './alarm-scope';
import { AlarmsRepository, type Contact } from './alarms.repository';
import { callText, contactText, londonTime, monitorsAlarmText, monitorsAlarmTitle, stillOpenText, WORKER_TEXT } from './messages';
import { AlarmSteps, escalatedEvent, facts, labelOf, monitorsOnly, monitorsPush, peopleOf, planNotifyMonitors, planNotifyWorker, requestIds, stepPayload, teamOf } from './alarm-steps';
import { opening } from './missed-alarms';
import { Notifier } from './notifier';
import { stepDueAt, watchdogDueAt, type PolicyStep } from './policy';

type AlarmView = CommandMap['escalation.alarm.list.v1']['reply']['alarms'][number];
type WorkerAlarmView = CommandMap['escalation.alarm.mark_safe.v1']['reply']['alarm'];
/** What a step did: its follow-up (none: the deadline is done), a status for metrics, and the alarm it opened, if any. */
export type Fired = { next: NextStep | null; status: string; opened?: string };

const OUTCOME_LABEL: Record<string, string> = {
  accepted: 'accepted (pressed 1)',
  not_accepted: 'answered but did not press 1',
  no_answer: 'no answer',
  busy: 'busy',
  failed: 'call failed',
  canceled: 'call canceled',
  timeout: 'no outcome reported in time',
};


/**
 * When a step fell due, which notifications measures to the provider from: the first step's is the
 * emergency's press or the missed deadline (not when escalation heard of it), a later one its own time.
 */
const stepSince = (alarm: AlarmRow, index: number, due: Date): Date => (index === 0 ? (alarm.raisedAt ?? alarm.dueAt ?? due) : due);

/** A check-in as escalation hears of it: when it reached the server, and when the worker's device says it was made. */
export interface HeardCheckIn {
  receivedAt: Date;
  madeAt?: Date;
}

/**
 * Alarms and their escalation: each runs the policy frozen onto it at opening, one step after
 * another, through its `alarm:<id>` deadline. Every path that changes an alarm locks that
 * deadline row before the alarm row, so the scheduler, call outcomes and monitors never deadlock
 * and never run a step twice.
 */
@Injectable()
export class AlarmsService {
  constructor(
    private readonly repo: AlarmsRepository,
    private readonly deadlines: DeadlinesRepository,
    private readonly notifier: Notifier,
    private readonly steps: AlarmSteps,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Opens an alarm with the policy of today's configuration; its first steps are due at once. Undefined if it already existed. */
  async open(
    tx: Tx,
    emit: Emit,
    a: { kind: AlarmKind; userId: number; now: Date; dueAt?: Date; raisedAt?: Date; location?: string | null; shiftId?: string | null; emergencyId?: string; duress?: boolean },
  ): Promise<string | undefined> {
    const worker = await this.repo.worker(tx, a.userId);
    // The worker's team, as escalation last heard of it; none known: the organisation's policy and every admin.
    const team = worker?.teamId ? await this.repo.team(tx, worker.teamId) : undefined;
    const { values, note, opened } = opening(a, worker, team, this.settings);
    const id = values.id;
    const inserted = await tx.insert(alarms).values(values).onConflictDoNothing().returning({ id: alarms.id });
    if (inserted.length === 0) return undefined;
    await this.repo.note(tx, id, a.now, note.text, note.workerText);
    await emit(opened.subject, opened.data);
    await this.deadlines.put(tx, { jobKey: alarmKey(id), kind: 'alarm', userId: a.userId, step: 'step', dueAt: a.now, payload: stepPayload({ id, kind: a.kind }, { index: 0 }) });
    return id;
  }

  /**
   * Runs the steps of an alarm due at once in the transaction that opened it (an emergency: its
   * messages are written with the alarm, and go out on the relay's next round, not after a
   * scheduler pass). In a savepoint: if a step fails, the deadline stays due and the scheduler runs
   * it, with its retries.
   */
  async startNow(tx: Tx, emit: Emit, alarmId: string): Promise<void> {
    const row = await this.deadlines.lock(tx, alarmKey(alarmId));
    if (!row) return;
    const now = this.clock();
    try {
      await tx.transaction(async (sp) => {
        const fired = await this.fire(sp, emit, row, now);
        await this.deadlines.advance(sp, row, fired.next);
      });
    } catch (err) {
      this.logger.warn({ err, alarmId }, "an alarm's first steps failed as it opened; the scheduler runs them");
    }
  }

  /** Runs a claimed `alarm:<id>` deadline (the scheduler holds its row). */
  async fire(tx: Tx, emit: Emit, row: DeadlineRow, now: Date): Promise<Fired> {
    const alarm = row.payload.alarmId ? await this.repo.lock(tx, row.payload.alarmId) : undefined;
    if (!alarm || alarm.state === 'resolved' || alarm.stepsStoppedReason) return { next: null, status: 'alarm_closed' };
    switch (row.step) {
      case 'step':
        return this.runFrom(tx, emit, alarm, row.payload.index ?? 0, now);
      case 'call_watchdog': {
        const [call] = await tx
          .update(calls)
          .set({ outcome: 'timeout', completedAt: now })
          .where(and(eq(calls.requestId, row.payload.requestId ?? ''), isNull(calls.outcome)))
          .returning();
        if (!call) return { next: null, status: 'call_already_completed' };
        return this.afterCall(tx, emit, alarm, call, 'timeout', now);
      }
      case 'repeat':
        return this.repeat(tx, emit, alarm, now);
      default:
        throw new Error(`unknown alarm step ${row.step}`);
    }
  }

  /** notifications.call.completed.v1: the outcome of a call this service asked for advances its alarm once. */
  async callCompleted(tx: Tx, emit: Emit, e: EventMap['notifications.call.completed.v1']): Promise<void> {
    if (!e.requestId) return;
    const [known] = await tx.select().from(calls).where(eq(calls.requestId, e.requestId));
    if (!known) return;
    const now = this.clock();
    const deadline = await this.deadlines.lock(tx, alarmKey(known.alarmId));
    const alarm = await this.repo.lock(tx, known.alarmId);
    const [call] = await tx
      .update(calls)
      .set({ outcome: e.outcome, completedAt: now })
      .where(and(eq(calls.requestId, e.requestId), isNull(calls.outcome)))
      .returning();
    if (!call || !alarm) return;
    if (call.purpose === 'primary_contact' || alarm.state === 'resolved' || alarm.stepsStoppedReason || call.round !== alarm.callRound) {
      await this.repo.note(tx, alarm.id, now, `Called ${call.phone}: ${OUTCOME_LABEL[e.outcome] ?? e.outcome}`);
      return;
    }
    const fired = await this.afterCall(tx, emit, alarm, call, e.outcome, now);
    if (fired.next) await this.deadlines.put(tx, { jobKey: alarmKey(alarm.id), kind: 'alarm', userId: alarm.userId, ...fired.next });
    else if (deadline) await this.deadlines.remove(tx, deadline.jobKey);
  }

  /** Runs every step from `index` whose time has come; answers the deadline for the first that must wait. */
  private async runFrom(tx: Tx, emit: Emit, alarm: AlarmRow, index: number, now: Date): Promise<Fired> {
    const { steps } = alarm.policy;
    let ran = 'alarm_step';
    for (let i = index; i < steps.length; i++) {
      const due = stepDueAt(alarm.policy, i, alarm.openedAt, now, alarm.nobodyReachedAt);
      if (due.getTime() > now.getTime()) return { next: { step: 'step', dueAt: due, payload: stepPayload(alarm, { index: i }) }, status: ran };
      await this.repo.update(tx, alarm.id, { stepIndex: i });
      alarm.stepIndex = i;
      const waiting = await this.runStep(tx, emit, alarm, steps[i], i, now, stepSince(alarm, i, due));
      ran = steps[i].action;
      if (waiting) return { next: waiting, status: ran };
    }
    return this.policyDone(alarm, now, ran);
  }

  /** Runs one step; answers the watchdog deadline when a call round is under way. */
  private async runStep(tx: Tx, emit: Emit, alarm: AlarmRow, step: PolicyStep, index: number, now: Date, since: Date): Promise<NextStep | null> {
    const f = facts(alarm);
    const escalated = (details: string) => {
      const e = escalatedEvent(alarm, index, step.action, now, details);
      return emit(e.subject, e.data);
    };
    const ids = requestIds(alarm, since);
    switch (step.action) {
      case 'notify_worker': {
        await this.steps.apply(tx, emit, [planNotifyWorker(alarm, index, await this.repo.worker(tx, alarm.userId), since)], now);
        return null;
      }
      case 'notify_monitors':
      case 'notify_monitor':
      case 'notify_deputy':
      case 'notify_organisation': {
        const people = await this.repo.people(tx, peopleOf(alarm.policy.monitors));
        await this.steps.apply(tx, emit, [planNotifyMonitors(alarm, index, step, monitorsAlarmText(f), people, now, since)], now);
        return null;
      }
      case 'message_contacts': {
        if (step.unlessAcknowledged && alarm.state !== 'open') {
          await this.repo.note(tx, alarm.id, now, 'Emergency contacts not messaged: the alarm was acknowledged');
          return null;
        }
        const { contacts, primary } = await this.contactsOf(tx, alarm.userId);
        for (const c of contacts) await this.notifier.text(tx, emit, 'sms', c.phone, 'contact_message', contactText(f), ids);
        const lines: [string, string?][] = [];
        if (contacts.length) lines.push([`Messaged emergency contacts: ${contacts.map((c) => c.phone).join(', ')}`, WORKER_TEXT.contactsMessaged]);
        if (step.callPrimaryContact && primary) {
          await this.call(tx, emit, alarm, { purpose: 'primary_contact', phone: primary.phone, name: primary.name, round: alarm.callRound, index: 0, repeat: false }, now, since);
          lines.push([`Calling primary contact ${primary.phone}`, WORKER_TEXT.callingContact(primary.name)]);
        }
        if (!contacts.length) {
          await this.notifier.systemAlert(emit, 'no_emergency_contacts', `${labelOf(alarm)} has no emergency contact with a phone number: nobody was messaged`, now, alarm.userId);
          lines.push(['No emergency contacts to message']);
        }
        for (const [line, workerText] of lines) await this.repo.note(tx, alarm.id, now, line, workerText);
        await escalated(lines.map(([line]) => line).join('; '));
        return null;
      }
      case 'call_emergency_numbers': {
        if (step.unlessAcknowledged && alarm.state !== 'open') {
          await this.repo.note(tx, alarm.id, now, 'Emergency numbers not called: the alarm was acknowledged');
          await escalated('Skipped: acknowledged');
          return null;
        }
        return this.startRound(tx, emit, alarm, false, now, since, escalated);
      }
    }
  }

  private async startRound(tx: Tx, emit: Emit, alarm: AlarmRow, repeat: boolean, now: Date, since: Date, escalated?: (d: string) => Promise<unknown>): Promise<NextStep | null> {
    const numbers = alarm.policy.emergencyNumbers;
    if (numbers.length === 0) {
      await this.notifier.systemAlert(
        emit,
        'emergency_numbers_missing',
        `No emergency numbers are configured (EMERGENCY_NUMBER_1..3): nobody was called for the alarm of ${labelOf(alarm)}`,
        now,
        alarm.userId,
      );
      await this.repo.note(tx, alarm.id, now, 'No emergency numbers configured: nobody called');
      await escalated?.('No emergency numbers configured');
      return null;
    }
    const round = alarm.callRound + 1;
    await this.repo.update(tx, alarm.id, { callRound: round });
    alarm.callRound = round;
    await escalated?.(`Calling ${numbers.length} emergency number(s) in order`);
    return this.call(tx, emit, alarm, { purpose: 'emergency_number', phone: numbers[0], round, index: 0, repeat }, now, since);
  }

  /** Asks for one voice call; an emergency-number call answers its watchdog deadline. */
  private async call(
    tx: Tx,
    emit: Emit,
    alarm: AlarmRow,
    c: { purpose: CallRow['purpose']; phone: string; name?: string; round: number; index: number; repeat: boolean },
    now: Date,
    since: Date,
  ): Promise<NextStep | null> {
    const requestId = await this.notifier.request(tx, emit, {
      channel: 'voice',
      toPhone: c.phone,
      purpose: 'alarm_call',
      title: monitorsAlarmTitle(facts(alarm)),
      body: callText(facts(alarm)),
      ...requestIds(alarm, since),
      callTimeoutSeconds: alarm.policy.callTimeoutSeconds,
      ...(c.name ? { contactName: c.name.slice(0, 100) } : {}),
    });
    await tx.insert(calls).values({ requestId, alarmId: alarm.id, purpose: c.purpose, round: c.round, numberIndex: c.index, phone: c.phone, repeat: c.repeat, requestedAt: now });
    if (c.purpose === 'primary_contact') return null;
    // The worker hears of the round once, at its first number.
    await this.repo.note(tx, alarm.id, now, `Calling ${c.phone}`, c.index === 0 ? WORKER_TEXT.callingLine : undefined);
    return { step: 'call_watchdog', dueAt: watchdogDueAt(alarm.policy, now), payload: stepPayload(alarm, { requestId, index: alarm.stepIndex }) };
  }

  /** A call of the round ended (or its watchdog gave up): accept, try the next number, or finish the round. */
  private async afterCall(tx: Tx, emit: Emit, alarm: AlarmRow, call: CallRow, outcome: string, now: Date): Promise<Fired> {
    await this.repo.note(tx, alarm.id, now, `Called ${call.phone}: ${OUTCOME_LABEL[outcome] ?? outcome}`);
    const step = alarm.policy.steps[alarm.stepIndex];
    const stopOnAck = call.repeat || (step?.action === 'call_emergency_numbers' && step.unlessAcknowledged);
    const numbers = alarm.policy.emergencyNumbers;
    if (outcome === 'accepted') {
      await this.repo.update(tx, alarm.id, { callAcceptedAt: now });
      alarm.callAcceptedAt = now;
      await this.repo.note(tx, alarm.id, now, 'Emergency response line accepted the alarm', WORKER_TEXT.lineAccepted);
    } else if (stopOnAck && alarm.state !== 'open') {
      await this.repo.note(tx, alarm.id, now, 'Calls stopped: the alarm was acknowledged');
    } else if (call.numberIndex + 1 < numbers.length) {
      const next = await this.call(tx, emit, alarm, { purpose: 'emergency_number', phone: numbers[call.numberIndex + 1], round: call.round, index: call.numberIndex + 1, repeat: call.repeat }, now, now);
      return { next, status: 'call_next_number' };
    } else {
      await this.notifier.systemAlert(
        emit,
        'emergency_calls_unanswered',
        `No emergency number accepted the alarm call for ${labelOf(alarm)} (${numbers.join(', ')})`,
        now,
        alarm.userId,
      );
      await this.repo.note(tx, alarm.id, now, 'No emergency number accepted');
    }
    if (call.repeat) return this.policyDone(alarm, now, 'call_round_done');
    return this.runFrom(tx, emit, alarm, alarm.stepIndex + 1, now);
  }

  /** Nobody owns the alarm yet and nobody accepted a call: keep escalating. */
  private policyDone(alarm: AlarmRow, now: Date, status: string): Fired {
    if (alarm.state !== 'open' || alarm.callAcceptedAt) return { next: null, status };
    const dueAt = new Date(now.getTime() + alarm.policy.repeatAfterSeconds * 1000);
    return { next: { step: 'repeat', dueAt, payload: stepPayload(alarm, {}) }, status };
  }

  private async repeat(tx: Tx, emit: Emit, alarm: AlarmRow, now: Date): Promise<Fired> {
    if (alarm.state !== 'open' || alarm.callAcceptedAt) return { next: null, status: 'alarm_owned' };
    const f = facts(alarm);
    const people = await this.repo.people(tx, peopleOf(alarm.policy.monitors));
    const { request, details: reminded } = monitorsPush(alarm, { action: 'notify_monitors', after: 0 }, stillOpenText(f), people, now, now);
    await this.steps.apply(tx, emit, [{ alarm, index: alarm.stepIndex, action: 'notify_monitors', requests: [request], alerts: [], notes: [{ text: `Still unacknowledged: ${reminded.charAt(0).toLowerCase()}${reminded.slice(1)}` }] }], now);
    const calling = alarm.policy.steps.some((s) => s.action === 'call_emergency_numbers') && alarm.policy.emergencyNumbers.length > 0;
    await emit('escalation.alarm.escalated.v1', {
      alarmId: alarm.id,
      userId: alarm.userId,
      step: alarm.stepIndex,
      action: calling ? 'call_emergency_numbers' : 'notify_monitors',
      at: now.toISOString(),
      details: calling ? 'Still unacknowledged: monitors reminded, emergency numbers called again' : 'Still unacknowledged: monitors reminded',
      ...monitorsOnly(alarm),
      ...teamOf(alarm.teamId),
    });
    if (calling) {
      const next = await this.startRound(tx, emit, alarm, true, now, now);
      if (next) return { next, status: 'repeat_calls' };
    }
    return this.policyDone(alarm, now, 'repeat_reminder');
  }

  /** The worker's settings contacts, then their emergency contacts, each number once; the primary is the one to call. */
  private async contactsOf(tx: Tx, userId: number): Promise<{ contacts: Contact[]; primary?: Contact }> {
    const worker = await this.repo.worker(tx, userId);
    const listed = await this.repo.contactsOf(tx, userId);
    const seen = new Map<string, Contact>();
    const add = (phone: string | null, name?: string | null) => {
      const p = dialable(phone);
      if (p && !seen.has(p)) seen.set(p, { phone: p, ...(name ? { name } : {}) });
      else if (p && name && !seen.get(p)!.name) seen.get(p)!.name = name;
    };
    add(worker?.primaryContact ?? null);
    add(worker?.secondaryContact ?? null);
    for (const c of listed) add(c.phone, c.name);
    const contacts = [...seen.values()];
    const primaryPhone = dialable(worker?.primaryContact) ?? contacts[0]?.phone;
    return { contacts, primary: primaryPhone ? seen.get(primaryPhone) : undefined };
  }

  // ---- Worker events ----

  /**
   * A check-in while a missed-check-in alarm is open stops its steps; the alarm stays open, a missed
   * check-in, for a monitor to resolve. It is recorded at the time it reached the server: the time a
   * device says it was made (a check-in kept offline) is only the device's word, so it is shown as
   * that and never makes the check-in "before the deadline".
   */
  async lateCheckIn(tx: Tx, emit: Emit, userId: number, checkIn: HeardCheckIn): Promise<void> {
    const now = this.clock();
    const { receivedAt, madeAt } = checkIn;
    const claim = madeAt && madeAt.getTime() !== receivedAt.getTime() ? ` (the worker's device says it was made at ${londonTime(madeAt)})` : '';
    for (const candidate of await this.repo.activeMissed(tx, userId)) {
      await this.deadlines.lock(tx, alarmKey(candidate.id));
      const alarm = await this.repo.lock(tx, candidate.id);
      if (!alarm || alarm.state === 'resolved' || alarm.stepsStoppedReason) continue;
      await this.deadlines.remove(tx, alarmKey(alarm.id));
      await this.repo.update(tx, alarm.id, { lateCheckInAt: receivedAt, stepsStoppedReason: 'late_check_in' });
      // Only the server's own time can put a check-in before the deadline: one that reached it in
      // time, whose event reached escalation after the alarm had opened.
      const early = alarm.dueAt && receivedAt.getTime() <= alarm.dueAt.getTime();
      await this.repo.note(
        tx,
        alarm.id,
        now,
        early
          ? `Checked in at ${londonTime(receivedAt)}, before the deadline (the check-in reached escalation late): no further steps`
          : `Late check-in at ${londonTime(receivedAt)}${claim}: no further steps`,
      );
      await emit('escalation.alarm.late_check_in.v1', { alarmId: alarm.id, userId, checkedInAt: receivedAt.toISOString(), ...teamOf(alarm.teamId) });
    }
  }

  /**
   * notifications gave up on one of the alarm's messages (an invalid number, a provider that
   * refused it for good, no browser to push to): the alarm's history says so. When every message
   * telling someone of an unacknowledged alarm has failed (the worker's and the monitors'), nobody
   * who could acknowledge it has heard: its calls to the emergency numbers start now instead of
   * after the acknowledgement wait, and an operator is told.
   */
  /** A message notifications reports sent goes on the alarm's history as such ("The SMS to … was sent"). */
  async messageSent(tx: Tx, alarmId: string, what: string, now: Date): Promise<void> {
    await this.repo.note(tx, alarmId, now, `${what[0].toUpperCase()}${what.slice(1)} was sent`);
  }

  /** The provider's receipt: the message reached the phone ("The SMS to … was delivered"). */
  async messageDelivered(tx: Tx, alarmId: string, what: string, now: Date): Promise<void> {
    await this.repo.note(tx, alarmId, now, `${what[0].toUpperCase()}${what.slice(1)} was delivered`);
  }

  async messageFailed(tx: Tx, emit: Emit, alarmId: string, what: string, error: string | undefined, now: Date): Promise<void> {
    const row = await this.deadlines.lock(tx, alarmKey(alarmId));
    const alarm = await this.repo.lock(tx, alarmId);
    if (!alarm || alarm.state === 'resolved') return;
    await this.repo.note(tx, alarm.id, now, `${what[0].toUpperCase()}${what.slice(1)} failed${error ? `: ${error}` : ''}`);
    if (alarm.state !== 'open' || alarm.nobodyReachedAt || alarm.stepsStoppedReason) return;
    const told = (await tx.select({ request: notificationRequests.request, lastStatus: notificationRequests.lastStatus }).from(notificationRequests).where(eq(notificationRequests.alarmId, alarm.id))).filter(
      (t) => t.request.purpose === alarm.kind && t.request.channel !== 'voice',
    );
    if (told.length === 0 || told.some((t) => t.lastStatus !== 'failed')) return;
    const callsAt = alarm.policy.steps.findIndex((s, i) => i >= alarm.stepIndex && s.action === 'call_emergency_numbers');
    const waiting = row?.step === 'step' ? (row.payload.index ?? 0) : undefined;
    if (callsAt < 0 || waiting === undefined || waiting > callsAt) return;
    await this.repo.update(tx, alarm.id, { nobodyReachedAt: now });
    await this.deadlines.put(tx, { jobKey: alarmKey(alarm.id), kind: 'alarm', userId: alarm.userId, step: 'step', dueAt: now, payload: stepPayload(alarm, { index: waiting }) });
    await this.repo.note(tx, alarm.id, now, 'Nobody could be told of the alarm (every message to the worker and the monitors failed): calling the emergency numbers now');
    await this.notifier.systemAlert(
      emit,
      'nobody_reached',
      `Every message telling the worker and the monitors of the alarm of ${labelOf(alarm)} failed: the emergency numbers are called now, without waiting for an acknowledgement`,
      now,
      alarm.userId,
    );
  }

  /** The shift ended: nobody is waiting for this worker to check in any more. */
  async shiftEnded(tx: Tx, userId: number, reason: string): Promise<void> {
    const now = this.clock();
    for (const candidate of await this.repo.activeMissed(tx, userId)) {
      await this.deadlines.lock(tx, alarmKey(candidate.id));
      const alarm = await this.repo.lock(tx, candidate.id);
      if (!alarm || alarm.state === 'resolved' || alarm.stepsStoppedReason) continue;
      await this.deadlines.remove(tx, alarmKey(alarm.id));
      await this.repo.update(tx, alarm.id, { stepsStoppedReason: 'shift_ended' });
      await this.repo.note(tx, alarm.id, now, `Shift ended (${reason.replace('_', ' ')}): no further steps`);
    }
  }

  // ---- Monitors ----

  async acknowledge(req: CommandMap['escalation.alarm.acknowledge.v1']['request']): Promise<{ alarm: AlarmView }> {
    return this.uow.run(async (tx, emit) => {
      await this.deadlines.lock(tx, alarmKey(req.alarmId));
      const alarm = await this.repo.lock(tx, req.alarmId);
      if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
      if (alarm.state === 'resolved') throw new RpcError(409, 'Alarm already resolved', { code: 'alarm_resolved' });
      if (alarm.acknowledgedAt) return { alarm: await this.view(tx, alarm) };
      const now = this.clock();
      const set = { state: 'acknowledged' as const, acknowledgedBy: req.byUserId, acknowledgedAt: now };
      await this.repo.update(tx, alarm.id, set);
      const by = await this.personName(tx, req.byUserId);
      await this.repo.note(tx, alarm.id, now, `Acknowledged by ${by}`, WORKER_TEXT.dealing(by === 'a monitor' ? 'A monitor' : by));
      await emit('escalation.alarm.acknowledged.v1', {
        alarmId: alarm.id,
        userId: alarm.userId,
        byUserId: req.byUserId,
        at: now.toISOString(),
        ...(alarm.duress ? { duress: true } : {}),
        ...teamOf(alarm.teamId),
      });
      return { alarm: await this.view(tx, { ...alarm, ...set }) };
    });
  }

  async resolve(req: CommandMap['escalation.alarm.resolve.v1']['request']): Promise<{ alarm: AlarmView }> {
    return this.uow.run(async (tx, emit) => {
      await this.deadlines.lock(tx, alarmKey(req.alarmId));
      const alarm = await this.repo.lock(tx, req.alarmId);
      if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
      if (alarm.state === 'resolved') throw new RpcError(409, 'Alarm already resolved', { code: 'alarm_resolved' });
      const now = this.clock();
      const set = {
        state: 'resolved' as const,
        acknowledgedBy: alarm.acknowledgedBy ?? req.byUserId,
        acknowledgedAt: alarm.acknowledgedAt ?? now,
        resolvedBy: req.byUserId,
        resolvedAt: now,
        verdict: req.verdict,
        note: req.note,
      };
      await this.repo.update(tx, alarm.id, set);
      await this.deadlines.remove(tx, alarmKey(alarm.id));
      await this.repo.note(tx, alarm.id, now, `Resolved by ${await this.personName(tx, req.byUserId)} (${req.verdict === 'genuine' ? 'genuine' : 'false alarm'})`);
      await emit('escalation.alarm.resolved.v1', {
        alarmId: alarm.id,
        userId: alarm.userId,
        byUserId: req.byUserId,
        at: now.toISOString(),
        verdict: req.verdict,
        note: req.note,
        ...(alarm.duress ? { duress: true } : {}),
        ...teamOf(alarm.teamId),
      });
      return { alarm: await this.view(tx, { ...alarm, ...set }) };
    });
  }

  // ---- The worker's own emergency screen (issue 13) ----

  /** The worker's newest emergency not yet resolved, as their screen shows it. */
  async own(req: CommandMap['escalation.alarm.own.v1']['request']): Promise<CommandMap['escalation.alarm.own.v1']['reply']> {
    return this.uow.run(async (tx) => {
      const [alarm] = await this.repo.ownEmergencies(tx, req.userId);
      return alarm ? { alarm: await this.workerView(tx, alarm) } : {};
    });
  }

  /**
   * The worker says they are safe (the gateway has checked their PIN): every emergency of theirs
   * still open stops escalating and waits for a monitor to confirm it as a false alarm. Under
   * duress (the duress PIN) their screen shows exactly the same, but nothing stops: the history
   * tells monitors, and the gateway has raised a duress emergency besides.
   */
  async markSafe(req: CommandMap['escalation.alarm.mark_safe.v1']['request']): Promise<CommandMap['escalation.alarm.mark_safe.v1']['reply']> {
    return this.uow.run(async (tx, emit) => {
      const asked = await this.repo.find(tx, req.alarmId);
      if (!asked || asked.userId !== req.userId || asked.kind !== 'emergency' || asked.duress) {
        throw new RpcError(404, 'Emergency not found', { code: 'alarm_not_found' });
      }
      if (asked.state === 'resolved') throw new RpcError(409, 'A monitor has already closed this emergency', { code: 'alarm_resolved' });
      const now = this.clock();
      const underDuress = req.underDuress === true;
      for (const candidate of await this.repo.ownEmergencies(tx, req.userId)) {
        await this.deadlines.lock(tx, alarmKey(candidate.id));
        const alarm = await this.repo.lock(tx, candidate.id);
        if (!alarm || alarm.state === 'resolved' || alarm.workerSafeAt) continue;
        const label = labelOf(alarm);
        if (underDuress) {
          await this.repo.update(tx, alarm.id, { workerSafeAt: now, safeUnderDuress: true });
          await this.repo.note(
            tx,
            alarm.id,
            now,
            `DURESS: ${label} cancelled this emergency with their duress PIN at ${londonTime(now)}: they may be under threat; escalation continues`,
            WORKER_TEXT.safe,
          );
          // The worker's stream must change exactly as for the PIN; the flag tells monitors apart.
          await emit('escalation.alarm.worker_safe.v1', { alarmId: alarm.id, userId: alarm.userId, at: now.toISOString(), underDuress: true, ...teamOf(alarm.teamId) });
          continue;
        }
        await this.repo.update(tx, alarm.id, { workerSafeAt: now, stepsStoppedReason: alarm.stepsStoppedReason ?? 'worker_safe' });
        await this.deadlines.remove(tx, alarmKey(alarm.id));
        await this.repo.note(
          tx,
          alarm.id,
          now,
          `${label} said they are safe at ${londonTime(now)} (PIN entered): no further steps; confirm it and resolve it as a false alarm`,
          WORKER_TEXT.safe,
        );
        await emit('escalation.alarm.worker_safe.v1', { alarmId: alarm.id, userId: alarm.userId, at: now.toISOString(), ...teamOf(alarm.teamId) });
      }
      const current = await this.repo.find(tx, asked.id);
      return { alarm: await this.workerView(tx, current!) };
    });
  }

  /**
   * What the worker sees: nothing after the moment they said they were safe (under duress the alarm
   * goes on escalating, and their screen must look exactly as if it had stopped).
   */
  private async workerView(tx: Tx, alarm: AlarmRow): Promise<WorkerAlarmView> {
    const until = alarm.workerSafeAt?.getTime() ?? Infinity;
    const updates = (await this.repo.workerUpdates(tx, alarm.id)).filter((u) => u.at.getTime() <= until);
    const acknowledged = alarm.acknowledgedAt && alarm.acknowledgedAt.getTime() <= until ? alarm.acknowledgedAt : null;
    const ackName = acknowledged && alarm.acknowledgedBy !== null ? (await this.namesOf(tx, [alarm.acknowledgedBy])).get(alarm.acknowledgedBy) : undefined;
    return {
      id: alarm.id,
      // Under duress, a monitor's acknowledgement after "I'm safe" is not shown either.
      state: alarm.state === 'acknowledged' && !acknowledged ? 'open' : alarm.state,
      openedAt: alarm.openedAt.toISOString(),
      ...(acknowledged ? { acknowledgedAt: acknowledged.toISOString() } : {}),
      ...(ackName ? { acknowledgedByName: ackName } : {}),
      ...(alarm.workerSafeAt ? { workerSafeAt: alarm.workerSafeAt.toISOString() } : {}),
      updates: updates.map((u) => ({ at: u.at.toISOString(), text: u.text })),
    };
  }

  async list(req: CommandMap['escalation.alarm.list.v1']['request']): Promise<CommandMap['escalation.alarm.list.v1']['reply']> {
    const after = req.cursor ? decodeCursor(req.cursor) : undefined;
    return this.uow.run(async (tx) => {
      if (ownsNothing(req)) return { alarms: [] };
      const rows = await this.repo.page(tx, req.openOnly, req.limit + 1, after, req);
      const page = rows.slice(0, req.limit);
      const history = await this.repo.history(tx, page.map((r) => r.id));
      const names = await this.names(tx, page);
      const alarmsOut = page.map((r) => toView(r, history.get(r.id) ?? [], names));
      const last = page[page.length - 1];
      return { alarms: alarmsOut, ...(rows.length > req.limit && last ? { nextCursor: encodeCursor(last) } : {}) };
    });
  }

  private async view(tx: Tx, alarm: AlarmRow): Promise<AlarmView> {
    const history = await this.repo.history(tx, [alarm.id]);
    return toView(alarm, history.get(alarm.id) ?? [], await this.names(tx, [alarm]));
  }

  /** The names of the people who acknowledged and resolved these alarms, as escalation knows them. */
  private names(tx: Tx, alarms: AlarmRow[]): Promise<Map<number, string>> {
    return this.namesOf(tx, alarms.flatMap((a) => [a.acknowledgedBy, a.resolvedBy].filter((id): id is number => id !== null)));
  }

  private async namesOf(tx: Tx, userIds: number[]): Promise<Map<number, string>> {
    const people = await this.repo.people(tx, userIds);
    return new Map([...people].flatMap(([id, p]) => (p.name ? [[id, p.name] as const] : [])));
  }

  /** A person as the alarm's history names them: by name (one escalation has not heard of yet: "a monitor"). */
  private async personName(tx: Tx, userId: number): Promise<string> {
    return (await this.namesOf(tx, [userId])).get(userId) ?? 'a monitor';
  }
}



function toView(a: AlarmRow, history: string[], names: Map<number, string>): AlarmView {
  const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
  const view: AlarmView = {
    id: a.id,
    userId: a.userId,
    kind: a.kind,
    state: a.state,
    openedAt: a.openedAt.toISOString(),
    history,
  };
  if (a.workerName) view.workerName = a.workerName;
  if (a.location) view.location = a.location;
  if (a.dueAt) view.dueAt = iso(a.dueAt);
  if (a.acknowledgedBy !== null) view.acknowledgedBy = a.acknowledgedBy;
  if (a.acknowledgedAt) view.acknowledgedAt = iso(a.acknowledgedAt);
  if (a.acknowledgedBy !== null && names.has(a.acknowledgedBy)) view.acknowledgedByName = names.get(a.acknowledgedBy);
  if (a.resolvedBy !== null) view.resolvedBy = a.resolvedBy;
  if (a.resolvedBy !== null && names.has(a.resolvedBy)) view.resolvedByName = names.get(a.resolvedBy);
  if (a.resolvedAt) view.resolvedAt = iso(a.resolvedAt);
  if (a.verdict) view.verdict = a.verdict;
  if (a.note) view.note = a.note;
  if (a.lateCheckInAt) view.lateCheckInAt = iso(a.lateCheckInAt);
  if (a.duress) view.duress = true;
  // A cancel made with the duress PIN is no sign of safety: monitors read it in the history.
  if (a.workerSafeAt && !a.safeUnderDuress) view.workerSafeAt = iso(a.workerSafeAt);
  if (a.shiftNote) view.shiftNote = a.shiftNote;
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
