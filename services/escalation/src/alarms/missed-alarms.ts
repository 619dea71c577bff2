import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EventMap, VisitSummary } from '@lws/contracts';
import type { PendingEvent } from '@lws/messaging';
import { insertRows, type Emit, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { alarms, type AlarmKind, type DeadlineRow, type WorkerRow } from '../db/schema';
import { alarmKey, DeadlinesRepository, type DeadlineSpec } from '../deadlines/deadlines.repository';
import {
  AlarmSteps,
  facts,
  peopleOf,
  planNotifyMonitors,
  planNotifyWorker,
  stepPayload,
  teamOf,
  TELLING_ACTIONS,
  type StepPlan,
} from './alarm-steps';
import { AlarmsRepository } from './alarms.repository';
import { londonTime, monitorsAlarm, WORKER_TEXT } from './messages';
import { duressPolicy, forVisitType, freezePolicy, stepDueAt, type TeamPolicy } from './policy';

export interface Opening {
  kind: AlarmKind;
  userId: number;
  now: Date;
  dueAt?: Date;
  raisedAt?: Date;
  location?: string | null;
  shiftId?: string | null;
  emergencyId?: string;
  duress?: boolean;
  /** An emergency raised during a timed visit. */
  visit?: VisitSummary;
}

/**
 * A new alarm as it is written: its row, with the policy of today's configuration frozen onto it
 * (its team's, else the organisation's), the first line of its history, and the opened event.
 */
export function opening(a: Opening, worker: WorkerRow | undefined, team: TeamPolicy | undefined, settings: EscalationSettings) {
  // An emergency is the visit's when raised during one; a missed check-in when the worker is on one.
  const visit = a.kind === 'emergency' ? (a.visit ?? null) : worker?.onShift ? (worker.visit ?? null) : null;
  // A visit of a type with its own policy escalates by that policy.
  const frozen = freezePolicy(a.kind, settings.policy, a.now, forVisitType(team, visit?.typeId));
  const duress = a.kind === 'emergency' && a.duress === true;
  const policy = duress ? duressPolicy(frozen) : frozen;
  const location = a.location ?? worker?.location ?? null;
  const values = {
    id: randomUUID(),
    userId: a.userId,
    kind: a.kind,
    teamId: worker?.teamId ?? null,
    policy,
    openedAt: a.now,
    dueAt: a.dueAt ?? null,
    workerName: worker?.name ?? null,
    location,
    shiftId: a.shiftId ?? worker?.shiftId ?? null,
    emergencyId: a.emergencyId ?? null,
    raisedAt: a.raisedAt ?? null,
    duress,
    shiftNote: worker?.onShift ? worker.shiftNote : null,
    lastPosition: worker?.lastPosition ?? null,
    visit,
  } satisfies typeof alarms.$inferInsert;
  const note = duress
    ? {
        text: `DURESS: the worker entered their duress PIN at ${londonTime(a.now)}; every step runs at once, and nothing is sent to the worker`,
      }
    : a.kind === 'emergency'
      ? { text: `Emergency raised at ${londonTime(a.now)}`, workerText: WORKER_TEXT.requested }
      : { text: `Missed check-in due at ${londonTime(a.dueAt ?? a.now)}` };
  if (visit) note.text += `; ${visitLine(visit, a.dueAt)}`;
  const opened: { subject: 'escalation.alarm.opened.v1'; data: EventMap['escalation.alarm.opened.v1'] } = {
    subject: 'escalation.alarm.opened.v1',
    data: {
      alarmId: values.id,
      userId: a.userId,
      kind: a.kind,
      openedAt: a.now.toISOString(),
      ...(worker?.name ? { workerName: worker.name } : {}),
      ...(location ? { location } : {}),
      ...(a.dueAt ? { dueAt: a.dueAt.toISOString() } : {}),
      ...(duress ? { duress } : {}),
      ...teamOf(worker?.teamId),
      ...(visit ? { visitId: visit.id } : {}),
    },
  };
  return { values, note: note as { text: string; workerText?: string }, opened };
}

/** The visit an alarm opened on, as its first history line says it: where, and whether its timer ran out. */
function visitLine(visit: VisitSummary, dueAt: Date | undefined): string {
  const timerRanOut = dueAt !== undefined && Date.parse(visit.endsAt) === dueAt.getTime();
  return `on a visit to ${visit.where}${timerRanOut ? ' (its timer ran out)' : ` until ${londonTime(new Date(visit.endsAt))}`}${visit.hasNote ? '; it has a sealed note' : ''}`;
}

/** A claimed missed check-in whose deadline stands (shifts confirmed it, or could not be asked). */
export interface Missed {
  row: DeadlineRow;
  due: Date;
  shiftId: string | null;
}

/**
 * Opens the missed check-in alarms of a scheduler pass together, and runs their first steps in
 * the same statements: a flood of missed check-ins costs a handful of statements a pass, not some
 * twenty-five each. One read of the workers and one of their teams and monitors; one insert each
 * for the alarms, their history, their events and their tracked requests; the claimed check-in
 * deadlines removed and the alarms' deadlines written, each in one statement. Only the steps that
 * tell people (notify_worker, notify_*monitors) are run here; a policy whose first steps do more
 * (messages to contacts, calls) has that step run one alarm at a time, in the same pass.
 */
@Injectable()
export class MissedAlarms {
  constructor(
    private readonly repo: AlarmsRepository,
    private readonly deadlines: DeadlinesRepository,
    private readonly steps: AlarmSteps,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
  ) {}

  /**
   * Opens one alarm per row (in the caller's savepoint: it throws rather than write half). Answers
   * each claimed row's alarm, and the alarms whose deadline is due now at a step only the
   * one-at-a-time path runs.
   */
  async open(tx: Tx, emit: Emit, missed: readonly Missed[], now: Date): Promise<{ opened: Map<DeadlineRow, string>; followUps: string[] }> {
    const workers = await this.repo.workersOf(
      tx,
      missed.map((m) => m.row.userId),
    );
    const teams = await this.repo.teamsOf(
      tx,
      [...workers.values()].flatMap((w) => (w.teamId ? [w.teamId] : [])),
    );
    const openings = missed.map((m) => {
      const worker = workers.get(m.row.userId);
      const team = worker?.teamId ? teams.get(worker.teamId) : undefined;
      return opening(
        { kind: 'missed_check_in', userId: m.row.userId, now, dueAt: m.due, shiftId: m.shiftId || null },
        worker,
        team,
        this.settings,
      );
    });
    const rows = await insertRows(
      tx,
      alarms,
      openings.map((o) => o.values),
      { returning: true },
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const people = await this.repo.people(
      tx,
      rows.flatMap((r) => peopleOf(r.policy.monitors)),
    );

    const plans: StepPlan[] = [];
    const next: DeadlineSpec[] = [];
    const stepIndexes: { id: string; stepIndex: number }[] = [];
    const followUps: string[] = [];
    for (const o of openings) {
      const alarm = byId.get(o.values.id)!;
      const { steps } = alarm.policy;
      let i = 0;
      let waitsAt: Date | undefined;
      for (; i < steps.length; i++) {
        const due = stepDueAt(alarm.policy, i, alarm.openedAt, now, null);
        if (due.getTime() > now.getTime()) {
          waitsAt = due;
          break;
        }
        if (!TELLING_ACTIONS.has(steps[i].action)) {
          waitsAt = now;
          followUps.push(alarm.id);
          break;
        }
        // The first step's time is the missed deadline, which notifications measures from.
        const since = i === 0 ? (alarm.dueAt ?? due) : due;
        const step = steps[i];
        plans.push(
          step.action === 'notify_worker'
            ? planNotifyWorker(alarm, i, workers.get(alarm.userId), since)
            : planNotifyMonitors(alarm, i, step, monitorsAlarm(facts(alarm)).body, people, now, since),
        );
        alarm.stepIndex = i;
      }
      if (alarm.stepIndex > 0) stepIndexes.push({ id: alarm.id, stepIndex: alarm.stepIndex });
      // Every step ran: nobody owns it yet, so the monitors are reminded until someone does.
      const deadline = waitsAt
        ? { step: 'step', dueAt: waitsAt, payload: stepPayload(alarm, { index: i }) }
        : { step: 'repeat', dueAt: new Date(now.getTime() + alarm.policy.repeatAfterSeconds * 1000), payload: stepPayload(alarm, {}) };
      next.push({ jobKey: alarmKey(alarm.id), kind: 'alarm', userId: alarm.userId, ...deadline });
    }

    const events: PendingEvent[] = openings.map((o) => o.opened);
    const notes = openings.map((o) => ({ alarmId: o.values.id, at: now, text: o.note.text, workerText: o.note.workerText ?? null }));
    await this.steps.apply(tx, emit, plans, now, { events, notes });
    await this.repo.setStepIndexes(tx, stepIndexes);
    const removed = await this.deadlines.removeMany(
      tx,
      missed.map((m) => m.row),
    );
    // Held since the claim (FOR UPDATE), so none can have moved; if one did, nothing of the batch stands.
    if (removed.size !== missed.length) throw new Error(`${missed.length - removed.size} claimed check-in deadline(s) moved while claimed`);
    await this.deadlines.putMany(tx, next);
    return { opened: new Map(missed.map((m, i) => [m.row, openings[i].values.id])), followUps };
  }
}
