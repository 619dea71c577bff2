import { Inject, Injectable } from '@nestjs/common';
import { and, eq, isNull } from 'drizzle-orm';
import type { EventMap } from '@lws/contracts';
import { CLOCK, LOGGER, type Clock, type Emit, type Logger, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import {
  alarms,
  calls,
  joinedEmergencies,
  notificationRequests,
  type AlarmKind,
  type AlarmRow,
  type CallRow,
  type DeadlineRow,
} from '../db/schema';
import { alarmKey, DeadlinesRepository, type NextStep } from '../deadlines/deadlines.repository';
import { dialable } from '../workers/phone';
import { acknowledged, escalating, owned, resolved } from './alarm-state';
import { AlarmsRepository, type Contact } from './alarms.repository';
import {
  callText,
  closedOnShift,
  contactText,
  english,
  londonTime,
  monitorsAlarm,
  monitorsAlarmTitle,
  stillOpen,
  WORKER_TEXT,
  type WorkerLine,
} from './messages';
import {
  AlarmSteps,
  escalatedEvent,
  facts,
  labelOf,
  monitorsOnly,
  monitorsPush,
  peopleOf,
  planNotifyMonitors,
  planNotifyWorker,
  requestIds,
  stepPayload,
  teamOf,
  teamRecipients,
} from './alarm-steps';
import { opening } from './missed-alarms';
import { handOffOf, handOffSummary } from './hand-off';
import { Notifier } from './notifier';
import { stepDueAt, watchdogDueAt, type PolicyStep } from './policy';

/** What a step did: its follow-up (none: the deadline is done), a status for metrics, and the alarm it opened, if any. */
export type Fired = { next: NextStep | null; status: string; opened?: string };

/** An alarm as open() wrote it, with its first deadline. */
export type Opened = { alarm: AlarmRow; deadline: DeadlineRow };

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

/**
 * An alarm as a run of its steps changes it: its fields read as changed at once, and the changed
 * ones are written together as the run ends (stepping), one UPDATE of the alarm row a run.
 */
type Stepping = AlarmRow & { readonly changed: Partial<AlarmRow> };

const change = (alarm: Stepping, set: Partial<AlarmRow>): void => {
  Object.assign(alarm, set);
  Object.assign(alarm.changed, set);
};

/** A check-in as escalation hears of it: when it reached the server, and when the worker's device says it was made. */
export interface HeardCheckIn {
  receivedAt: Date;
  madeAt?: Date;
}

/**
 * Alarms and their escalation: each runs the policy frozen onto it at opening, one step after
 * another, through its `alarm:<id>` deadline. Every path that changes an alarm locks that
 * deadline row before the alarm row, so the scheduler, call outcomes and people's commands
 * (AlarmCommands) never deadlock and never run a step twice.
 */
@Injectable()
export class AlarmsService {
  constructor(
    private readonly repo: AlarmsRepository,
    private readonly deadlines: DeadlinesRepository,
    private readonly notifier: Notifier,
    private readonly steps: AlarmSteps,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Opens an alarm with the policy of today's configuration; its first steps are due at once.
   * Answers its row and its deadline's, both written (so locked) by this transaction; undefined if
   * it already existed.
   */
  async open(
    tx: Tx,
    emit: Emit,
    a: {
      kind: AlarmKind;
      userId: number;
      now: Date;
      dueAt?: Date;
      raisedAt?: Date;
      location?: string | null;
      shiftId?: string | null;
      emergencyId?: string;
      duress?: boolean;
    },
  ): Promise<Opened | undefined> {
    const worker = await this.repo.worker(tx, a.userId);
    // The worker's team, as escalation last heard of it; none known: the organisation's policy and every admin.
    const team = worker?.teamId ? await this.repo.team(tx, worker.teamId) : undefined;
    const { values, note, opened } = opening(a, worker, team, this.settings);
    const id = values.id;
    const [alarm] = await tx.insert(alarms).values(values).onConflictDoNothing().returning();
    if (!alarm) return undefined;
    await this.repo.note(tx, id, a.now, note.text, note.workerText);
    await emit(opened.subject, opened.data);
    const deadline = await this.deadlines.putLocked(tx, {
      jobKey: alarmKey(id),
      kind: 'alarm',
      userId: a.userId,
      step: 'step',
      dueAt: a.now,
      payload: stepPayload({ id, kind: a.kind }, { index: 0 }),
    });
    return { alarm, deadline };
  }

  /**
   * A press of the emergency button while the worker's emergency alarm is still escalating joins
   * that alarm: a line on its history (and on the worker's screen) and an event for monitors,
   * instead of a second alarm each monitor must take and close, and a second run of calls. Answers
   * `joined`, or `known` when it had joined before (the same event heard twice); undefined: an
   * alarm of its own is to open (or has). A press of the duress PIN never comes here: it opens its own.
   */
  async joinPress(
    tx: Tx,
    emit: Emit,
    p: { emergencyId: string; userId: number; raisedAt: Date; now: Date },
  ): Promise<'joined' | 'known' | undefined> {
    const { joinedBefore, own, escalatingId } = await this.repo.pressFacts(tx, p.emergencyId, p.userId);
    if (joinedBefore) return 'known';
    if (own || !escalatingId) return undefined;
    // Locked in the order every path uses, and asked again: a monitor resolving it meanwhile must
    // not leave this press joined to a closed alarm, which would hide it. The press opens its own then.
    await this.deadlines.lock(tx, alarmKey(escalatingId));
    const alarm = await this.repo.lock(tx, escalatingId);
    if (!alarm || !escalating(alarm)) return undefined;
    const [joined] = await tx
      .insert(joinedEmergencies)
      .values({ emergencyId: p.emergencyId, alarmId: alarm.id, userId: p.userId, raisedAt: p.raisedAt, joinedAt: p.now })
      .onConflictDoNothing()
      .returning();
    if (!joined) return 'known';
    await this.repo.note(
      tx,
      alarm.id,
      p.now,
      `The worker pressed the emergency button again at ${londonTime(p.raisedAt)}`,
      WORKER_TEXT.pressedAgain,
    );
    await emit('escalation.alarm.pressed_again.v1', {
      alarmId: alarm.id,
      userId: p.userId,
      emergencyId: p.emergencyId,
      pressedAt: p.raisedAt.toISOString(),
      ...teamOf(alarm.teamId),
    });
    return 'joined';
  }

  /**
   * Runs the steps of an alarm due at once in the transaction that opened it (an emergency: its
   * messages are written with the alarm, and go out as it commits, not after a scheduler pass).
   * The rows open() wrote are held already: nothing is read or locked again. In a savepoint: if a
   * step fails, the deadline stays due and the scheduler runs it, with its retries.
   */
  async startNow(tx: Tx, emit: Emit, { alarm, deadline }: Opened): Promise<void> {
    const now = this.clock();
    try {
      await tx.transaction(async (sp) => {
        const fired = await this.stepping(sp, alarm, (a) => this.runFrom(sp, emit, a, deadline.payload.index ?? 0, now));
        await this.deadlines.advance(sp, deadline, fired.next);
      });
    } catch (err) {
      this.logger.warn({ err, alarmId: alarm.id }, "an alarm's first steps failed as it opened; the scheduler runs them");
    }
  }

  /** Runs a claimed `alarm:<id>` deadline (the scheduler holds its row). */
  async fire(tx: Tx, emit: Emit, row: DeadlineRow, now: Date): Promise<Fired> {
    const locked = row.payload.alarmId ? await this.repo.lock(tx, row.payload.alarmId) : undefined;
    if (!locked || !escalating(locked)) return { next: null, status: 'alarm_closed' };
    return this.stepping(tx, locked, async (alarm) => {
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
    });
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
    if (call.purpose === 'primary_contact' || !escalating(alarm) || call.round !== alarm.callRound) {
      await this.repo.note(tx, alarm.id, now, `Called ${call.phone}: ${OUTCOME_LABEL[e.outcome] ?? e.outcome}`);
      return;
    }
    const fired = await this.stepping(tx, alarm, (a) => this.afterCall(tx, emit, a, call, e.outcome, now));
    if (fired.next) await this.deadlines.put(tx, { jobKey: alarmKey(alarm.id), kind: 'alarm', userId: alarm.userId, ...fired.next });
    else if (deadline) await this.deadlines.remove(tx, deadline.jobKey);
  }

  /** Runs steps of the locked alarm, then writes what they changed of its row in one UPDATE, whichever way they returned. */
  private async stepping(tx: Tx, alarm: AlarmRow, run: (alarm: Stepping) => Promise<Fired>): Promise<Fired> {
    const stepping: Stepping = Object.assign(alarm, { changed: {} });
    const fired = await run(stepping);
    if (Object.keys(stepping.changed).length > 0) await this.repo.update(tx, alarm.id, stepping.changed);
    return fired;
  }

  /** Runs every step from `index` whose time has come; answers the deadline for the first that must wait. */
  private async runFrom(tx: Tx, emit: Emit, alarm: Stepping, index: number, now: Date): Promise<Fired> {
    const { steps } = alarm.policy;
    let ran = 'alarm_step';
    for (let i = index; i < steps.length; i++) {
      const due = stepDueAt(alarm.policy, i, alarm.openedAt, now, alarm.nobodyReachedAt);
      if (due.getTime() > now.getTime())
        return { next: { step: 'step', dueAt: due, payload: stepPayload(alarm, { index: i }) }, status: ran };
      change(alarm, { stepIndex: i });
      const waiting = await this.runStep(tx, emit, alarm, steps[i], i, now, stepSince(alarm, i, due));
      ran = steps[i].action;
      if (waiting) return { next: waiting, status: ran };
    }
    return this.policyDone(alarm, now, ran);
  }

  /** Runs one step; answers the watchdog deadline when a call round is under way. */
  private async runStep(
    tx: Tx,
    emit: Emit,
    alarm: Stepping,
    step: PolicyStep,
    index: number,
    now: Date,
    since: Date,
  ): Promise<NextStep | null> {
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
      case 'notify_on_call':
      case 'notify_on_call_next':
      case 'notify_organisation': {
        const people = await this.repo.people(tx, peopleOf(alarm.policy.monitors));
        await this.steps.apply(tx, emit, [planNotifyMonitors(alarm, index, step, monitorsAlarm(f).body, people, now, since)], now);
        return null;
      }
      case 'message_contacts': {
        if (step.unlessAcknowledged && acknowledged(alarm)) {
          await this.repo.note(tx, alarm.id, now, 'Emergency contacts not messaged: the alarm was acknowledged');
          return null;
        }
        const { contacts, primary } = await this.contactsOf(tx, alarm.userId);
        // The people close to the worker read and hear the worker's language.
        const language = contacts.length ? ((await this.repo.worker(tx, alarm.userId))?.language ?? null) : null;
        const written = language ? { ...ids, language } : ids;
        for (const c of contacts) await this.notifier.text(tx, emit, 'sms', c.phone, 'contact_message', contactText(f, language), written);
        const lines: [string, WorkerLine?][] = [];
        if (contacts.length)
          lines.push([`Messaged emergency contacts: ${contacts.map((c) => c.phone).join(', ')}`, WORKER_TEXT.contactsMessaged]);
        if (step.callPrimaryContact && primary) {
          const call = {
            purpose: 'primary_contact' as const,
            phone: primary.phone,
            name: primary.name,
            language,
            round: alarm.callRound,
            index: 0,
            repeat: false,
          };
          await this.call(tx, emit, alarm, call, now, since);
          lines.push([`Calling primary contact ${primary.phone}`, WORKER_TEXT.callingContact(primary.name)]);
        }
        if (!contacts.length) {
          await this.notifier.systemAlert(
            emit,
            'no_emergency_contacts',
            `${labelOf(alarm)} has no emergency contact with a phone number: nobody was messaged`,
            now,
            alarm.userId,
          );
          lines.push(['No emergency contacts to message']);
        }
        for (const [line, workerText] of lines) await this.repo.note(tx, alarm.id, now, line, workerText);
        await escalated(lines.map(([line]) => line).join('; '));
        return null;
      }
      case 'hand_off': {
        if (step.unlessAcknowledged && acknowledged(alarm)) {
          await this.repo.note(tx, alarm.id, now, 'Not handed to the receiving centre: the alarm was acknowledged');
          await escalated('Skipped: acknowledged');
          return null;
        }
        // The history as it stands, this step's line included, so the receiver reads what was done.
        const line = 'Handed to the receiving centre (webhook), with the worker, where they are and the history so far';
        await this.repo.note(tx, alarm.id, now, line);
        const history = (await this.repo.history(tx, [alarm.id])).get(alarm.id) ?? [];
        const handOff = handOffOf(alarm, await this.repo.worker(tx, alarm.userId), history, index);
        await this.notifier.request(tx, emit, {
          channel: 'webhook',
          toEndpointId: step.endpointId,
          purpose: 'alarm_handoff',
          title: monitorsAlarmTitle(f),
          body: handOffSummary(handOff),
          handOff,
          ...ids,
        });
        await escalated(line);
        return null;
      }
      case 'call_emergency_numbers': {
        if (step.unlessAcknowledged && acknowledged(alarm)) {
          await this.repo.note(tx, alarm.id, now, 'Emergency numbers not called: the alarm was acknowledged');
          await escalated('Skipped: acknowledged');
          return null;
        }
        return this.startRound(tx, emit, alarm, false, now, since, escalated);
      }
    }
  }

  private async startRound(
    tx: Tx,
    emit: Emit,
    alarm: Stepping,
    repeat: boolean,
    now: Date,
    since: Date,
    escalated?: (d: string) => Promise<unknown>,
  ): Promise<NextStep | null> {
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
    change(alarm, { callRound: round });
    await escalated?.(`Calling ${numbers.length} emergency number(s) in order`);
    return this.call(tx, emit, alarm, { purpose: 'emergency_number', phone: numbers[0], round, index: 0, repeat }, now, since);
  }

  /** Asks for one voice call; an emergency-number call answers its watchdog deadline. */
  private async call(
    tx: Tx,
    emit: Emit,
    alarm: AlarmRow,
    c: {
      purpose: CallRow['purpose'];
      phone: string;
      name?: string;
      language?: string | null;
      round: number;
      index: number;
      repeat: boolean;
    },
    now: Date,
    since: Date,
  ): Promise<NextStep | null> {
    const requestId = await this.notifier.request(tx, emit, {
      channel: 'voice',
      toPhone: c.phone,
      purpose: 'alarm_call',
      title: monitorsAlarmTitle(facts(alarm)),
      body: callText(facts(alarm), c.language),
      ...requestIds(alarm, since),
      ...(c.language ? { language: c.language } : {}),
      callTimeoutSeconds: alarm.policy.callTimeoutSeconds,
      ...(c.name ? { contactName: c.name.slice(0, 100) } : {}),
    });
    await tx.insert(calls).values({
      requestId,
      alarmId: alarm.id,
      purpose: c.purpose,
      round: c.round,
      numberIndex: c.index,
      phone: c.phone,
      repeat: c.repeat,
      requestedAt: now,
    });
    if (c.purpose === 'primary_contact') return null;
    // The worker hears of the round once, at its first number.
    await this.repo.note(tx, alarm.id, now, `Calling ${c.phone}`, c.index === 0 ? WORKER_TEXT.callingLine : undefined);
    return {
      step: 'call_watchdog',
      dueAt: watchdogDueAt(alarm.policy, now),
      payload: stepPayload(alarm, { requestId, index: alarm.stepIndex }),
    };
  }

  /** A call of the round ended (or its watchdog gave up): accept, try the next number, or finish the round. */
  private async afterCall(tx: Tx, emit: Emit, alarm: Stepping, call: CallRow, outcome: string, now: Date): Promise<Fired> {
    await this.repo.note(tx, alarm.id, now, `Called ${call.phone}: ${OUTCOME_LABEL[outcome] ?? outcome}`);
    const step = alarm.policy.steps[alarm.stepIndex];
    const stopOnAck = call.repeat || (step?.action === 'call_emergency_numbers' && step.unlessAcknowledged);
    const numbers = alarm.policy.emergencyNumbers;
    if (outcome === 'accepted') {
      change(alarm, { callAcceptedAt: now });
      await this.repo.note(tx, alarm.id, now, 'Emergency response line accepted the alarm', WORKER_TEXT.lineAccepted);
    } else if (stopOnAck && acknowledged(alarm)) {
      await this.repo.note(tx, alarm.id, now, 'Calls stopped: the alarm was acknowledged');
    } else if (call.numberIndex + 1 < numbers.length) {
      const next = await this.call(
        tx,
        emit,
        alarm,
        {
          purpose: 'emergency_number',
          phone: numbers[call.numberIndex + 1],
          round: call.round,
          index: call.numberIndex + 1,
          repeat: call.repeat,
        },
        now,
        now,
      );
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
    if (owned(alarm)) return { next: null, status };
    const dueAt = new Date(now.getTime() + alarm.policy.repeatAfterSeconds * 1000);
    return { next: { step: 'repeat', dueAt, payload: stepPayload(alarm, {}) }, status };
  }

  private async repeat(tx: Tx, emit: Emit, alarm: Stepping, now: Date): Promise<Fired> {
    if (owned(alarm)) return { next: null, status: 'alarm_owned' };
    const f = facts(alarm);
    const people = await this.repo.people(tx, peopleOf(alarm.policy.monitors));
    const { request, details: reminded } = monitorsPush(alarm, { action: 'notify_monitors', after: 0 }, stillOpen(f), people, now, now);
    await this.steps.apply(
      tx,
      emit,
      [
        {
          alarm,
          index: alarm.stepIndex,
          action: 'notify_monitors',
          requests: [request],
          alerts: [],
          notes: [{ text: `Still unacknowledged: ${reminded.charAt(0).toLowerCase()}${reminded.slice(1)}` }],
        },
      ],
      now,
    );
    const calling = alarm.policy.steps.some((s) => s.action === 'call_emergency_numbers') && alarm.policy.emergencyNumbers.length > 0;
    await emit('escalation.alarm.escalated.v1', {
      alarmId: alarm.id,
      userId: alarm.userId,
      step: alarm.stepIndex,
      action: calling ? 'call_emergency_numbers' : 'notify_monitors',
      at: now.toISOString(),
      details: calling
        ? 'Still unacknowledged: monitors reminded, emergency numbers called again'
        : 'Still unacknowledged: monitors reminded',
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
    const claim =
      madeAt && madeAt.getTime() !== receivedAt.getTime() ? ` (the worker's device says it was made at ${londonTime(madeAt)})` : '';
    for (const candidate of await this.repo.activeMissed(tx, userId)) {
      await this.deadlines.lock(tx, alarmKey(candidate.id));
      const alarm = await this.repo.lock(tx, candidate.id);
      if (!alarm || !escalating(alarm)) continue;
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
      await emit('escalation.alarm.late_check_in.v1', {
        alarmId: alarm.id,
        userId,
        checkedInAt: receivedAt.toISOString(),
        ...teamOf(alarm.teamId),
      });
    }
  }

  /**
   * Messages notifications reports sent ("The SMS to … was sent") or delivered, the provider's
   * receipt ("… was delivered"), on their alarms' histories: one statement for a sweep's reports.
   */
  async messagesReported(
    tx: Tx,
    reports: readonly { alarmId: string; what: string; outcome: 'sent' | 'delivered' }[],
    now: Date,
  ): Promise<void> {
    await this.repo.notes(
      tx,
      reports.map((r) => ({ alarmId: r.alarmId, at: now, text: `${r.what[0].toUpperCase()}${r.what.slice(1)} was ${r.outcome}` })),
    );
  }

  /**
   * notifications gave up on one of the alarm's messages (an invalid number, a provider that
   * refused it for good, no browser to push to): the alarm's history says so. When every message
   * telling someone of an unacknowledged alarm has failed (the worker's and the monitors'), nobody
   * who could acknowledge it has heard: its calls to the emergency numbers start now instead of
   * after the acknowledgement wait, and an operator is told.
   */
  async messageFailed(tx: Tx, emit: Emit, alarmId: string, what: string, error: string | undefined, now: Date): Promise<void> {
    const row = await this.deadlines.lock(tx, alarmKey(alarmId));
    const alarm = await this.repo.lock(tx, alarmId);
    if (!alarm || resolved(alarm)) return;
    await this.repo.note(tx, alarm.id, now, `${what[0].toUpperCase()}${what.slice(1)} failed${error ? `: ${error}` : ''}`);
    if (!escalating(alarm) || acknowledged(alarm) || alarm.nobodyReachedAt) return;
    const told = (
      await tx
        .select({ request: notificationRequests.request, lastStatus: notificationRequests.lastStatus })
        .from(notificationRequests)
        .where(eq(notificationRequests.alarmId, alarm.id))
    ).filter((t) => t.request.purpose === alarm.kind && t.request.channel !== 'voice');
    if (told.length === 0 || told.some((t) => t.lastStatus !== 'failed')) return;
    const callsAt = alarm.policy.steps.findIndex((s, i) => i >= alarm.stepIndex && s.action === 'call_emergency_numbers');
    const waiting = row?.step === 'step' ? (row.payload.index ?? 0) : undefined;
    if (callsAt < 0 || waiting === undefined || waiting > callsAt) return;
    await this.repo.update(tx, alarm.id, { nobodyReachedAt: now });
    await this.deadlines.put(tx, {
      jobKey: alarmKey(alarm.id),
      kind: 'alarm',
      userId: alarm.userId,
      step: 'step',
      dueAt: now,
      payload: stepPayload(alarm, { index: waiting }),
    });
    await this.repo.note(
      tx,
      alarm.id,
      now,
      'Nobody could be told of the alarm (every message to the worker and the monitors failed): calling the emergency numbers now',
    );
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
      if (!alarm || !escalating(alarm)) continue;
      if (reason === 'deactivated' || reason === 'user_deleted') {
        // Nobody checked on the worker yet, and the account going says nothing of their safety:
        // the alarm goes on escalating until a monitor takes it.
        const what = reason === 'deactivated' ? 'deactivated' : 'deleted';
        await this.repo.note(
          tx,
          alarm.id,
          now,
          `Account ${what} during the shift: the alarm goes on escalating until a monitor resolves it`,
        );
        continue;
      }
      await this.deadlines.remove(tx, alarmKey(alarm.id));
      await this.repo.update(tx, alarm.id, { stepsStoppedReason: 'shift_ended' });
      await this.repo.note(tx, alarm.id, now, `Shift ended (${reason.replace('_', ' ')}): no further steps`);
    }
  }

  /**
   * A worker on shift was deactivated or deleted (an admin, or the organisation's directory): their
   * shift ended and no check-in is expected any more, so the team's monitors are told by push
   * (every monitor when the team has none who can be told), never left to notice a name gone quiet.
   */
  async closedOnShift(tx: Tx, emit: Emit, userId: number, how: 'deactivated' | 'deleted'): Promise<void> {
    const worker = await this.repo.worker(tx, userId);
    const team = worker?.teamId ? await this.repo.team(tx, worker.teamId) : undefined;
    const now = this.clock();
    const people = await this.repo.people(tx, peopleOf(team?.monitors));
    const who = team ? teamRecipients(team.monitors, { action: 'notify_monitors', after: 0 }, people, now) : undefined;
    const { title, body } = closedOnShift(how, worker?.name ?? null, userId);
    await this.notifier.request(tx, emit, {
      channel: 'push',
      ...(who && who.userIds.length > 0 ? { toUsers: { userIds: who.userIds } } : { toRole: 'monitors' as const }),
      purpose: 'account_notice',
      title: english(title),
      body: english(body),
      titleText: title,
      bodyText: body,
      userId,
      since: now.toISOString(),
    });
  }
}
