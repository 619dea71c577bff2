import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { CheckInRequestBatch, CheckInRequestWorker, CommandMap, EventMap } from '@lws/contracts';
import { msg, translate } from '@lws/i18n';
import { RpcError, type PendingEvent } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { ownsAlarm } from '../alarms/alarm-scope';
import { teamOf } from '../alarms/alarm-steps';
import { AlarmViews } from '../alarms/alarm-views';
import { AlarmsRepository } from '../alarms/alarms.repository';
import { AlarmsService, type Fired } from '../alarms/alarms.service';
import { londonTime, workerLabel } from '../alarms/messages';
import { requestEvent, systemAlertEvent } from '../alarms/notifier';
import type { CheckinRequestRow, DeadlineRow, WorkerRow } from '../db/schema';
import { DeadlinesRepository } from '../deadlines/deadlines.repository';
import { ShiftsOwner, type OwnerAnswer } from '../deadlines/shifts-owner';
import { dialable } from '../workers/phone';
import { CheckinRequestsRepository, requestKey } from './checkin-requests.repository';

type Create = CommandMap['escalation.checkin_request.create.v1'];
type Get = CommandMap['escalation.checkin_request.get.v1'];
type List = CommandMap['escalation.checkin_request.list.v1'];
type Own = CommandMap['escalation.checkin_request.own.v1'];

const MINUTE = 60_000;
/**
 * The SMS follows the push when the worker has not answered within a minute. The request's timer
 * runs two steps: `request_sms`, then `missed` at the request's due time.
 */
const SMS_AFTER_MS = MINUTE;

/**
 * "Check in now": a monitor asks one worker, or every worker of a team on shift, to check in. A
 * push goes at once, an SMS a minute later, and a request still unanswered when it falls due opens
 * a missed check-in alarm. Any check-in made after the request answers it; the end of the shift
 * closes it. Each request is a row (a batch per monitor action) and a timer `request:<id>`.
 */
@Injectable()
export class CheckinRequestsService {
  constructor(
    private readonly repo: CheckinRequestsRepository,
    private readonly deadlines: DeadlinesRepository,
    private readonly alarms: AlarmsService,
    private readonly alarmsRepo: AlarmsRepository,
    private readonly views: AlarmViews,
    private readonly owner: ShiftsOwner,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(req: Create['request']): Promise<Create['reply']> {
    if ((req.userId === undefined) === (req.teamId === undefined))
      throw new RpcError(400, 'Ask one worker (userId) or a team (teamId)', { field: req.userId === undefined ? 'userId' : 'teamId' });
    const onShiftAtOwner = await this.onShiftAtOwner(req);
    return this.uow.run(async (tx, emit) => {
      const now = this.clock();
      const asked = await this.targets(tx, req, onShiftAtOwner);
      const batchId = randomUUID();
      const dueAt = new Date(now.getTime() + req.answerWithinMinutes * MINUTE);
      const rows = asked.map((w) => ({
        id: randomUUID(),
        batchId,
        userId: w.userId,
        teamId: w.teamId,
        askedTeamId: req.teamId ?? null,
        requestedBy: req.byUserId,
        requestedVia: req.viaToken ?? null,
        requestedAt: now,
        dueAt,
      }));
      await this.repo.insert(tx, rows);
      await this.deadlines.putMany(
        tx,
        rows.map((r) => ({
          jobKey: requestKey(r.id),
          kind: 'request' as const,
          userId: r.userId,
          step: 'request_sms',
          dueAt: new Date(now.getTime() + SMS_AFTER_MS),
          payload: { checkinRequestId: r.id, dueAt: dueAt.toISOString() },
        })),
      );
      const by = await this.askerName(tx, req.byUserId, req.viaToken ?? null);
      const events: PendingEvent[] = [];
      for (const [i, r] of rows.entries()) {
        const language = asked[i].language;
        events.push(
          {
            subject: 'escalation.checkin_request.created.v1',
            data: {
              requestId: r.id,
              batchId,
              userId: r.userId,
              byUserId: req.byUserId,
              requestedAt: now.toISOString(),
              dueAt: dueAt.toISOString(),
              ...teamOf(r.teamId),
              ...(req.viaToken ? { viaToken: req.viaToken } : {}),
            },
          },
          requestEvent({
            channel: 'push',
            toUserId: r.userId,
            userId: r.userId,
            purpose: 'checkin_request',
            title: translate(language, msg('Check in now')),
            body: translate(language, msg('{{name}} asks you to check in now. Open LWS and check in by {{time}}.'), {
              name: by,
              time: londonTime(dueAt),
            }),
            since: now.toISOString(),
            ...(language ? { language } : {}),
          }),
        );
      }
      await emit.many(events);
      return { batch: await this.view(tx, await this.repo.batch(tx, batchId, {})) };
    });
  }

  async get(req: Get['request']): Promise<Get['reply']> {
    return this.uow.run(async (tx) => {
      const rows = await this.repo.batch(tx, req.batchId, req);
      if (rows.length === 0) throw new RpcError(404, 'Check-in request not found', { code: 'checkin_request_not_found' });
      return { batch: await this.view(tx, rows) };
    });
  }

  async list(req: List['request']): Promise<List['reply']> {
    return this.uow.run(async (tx) => {
      const rows = await this.repo.recent(tx, new Date(req.since), req.limit, req);
      const batches = new Map<string, CheckinRequestRow[]>();
      for (const r of rows) batches.set(r.batchId, [...(batches.get(r.batchId) ?? []), r]);
      return { batches: await Promise.all([...batches.values()].map((b) => this.view(tx, b))) };
    });
  }

  async own(req: Own['request']): Promise<Own['reply']> {
    return this.uow.run(async (tx) => {
      const row = await this.repo.ownOpen(tx, req.userId);
      if (!row) return {};
      const name = row.requestedVia ?? (await this.views.personName(tx, row.requestedBy));
      return {
        request: { id: row.id, requestedAt: row.requestedAt.toISOString(), dueAt: row.dueAt.toISOString(), requestedByName: name },
      };
    });
  }

  /** A check-in answers every request asked before it was made. */
  async checkedIn(tx: Tx, emit: Emit, userId: number, madeAt: Date): Promise<void> {
    const answered = await this.repo.close(tx, userId, madeAt, 'answered_at', madeAt);
    await emit.many(answered.map((r) => closedEvent(r, 'answered', madeAt)));
  }

  /** The shift ended: nothing is asked of a worker off shift. */
  async shiftEnded(tx: Tx, emit: Emit, userId: number, endedAt: Date): Promise<void> {
    const closed = await this.repo.close(tx, userId, endedAt, 'closed_at', endedAt);
    await emit.many(closed.map((r) => closedEvent(r, 'shift_ended', endedAt)));
  }

  /** Whether a claimed timer row is a request's missed step (shifts is asked about those first, as for a check-in deadline). */
  missedAt(row: DeadlineRow): boolean {
    return row.kind === 'request' && row.step === 'missed';
  }

  /** Runs a claimed request timer: the SMS, or at its due time the missed check-in alarm. */
  async fire(tx: Tx, emit: Emit, row: DeadlineRow, now: Date, owner: OwnerAnswer = { kind: 'unavailable' }): Promise<Fired> {
    const request = row.payload.checkinRequestId ? await this.repo.lock(tx, row.payload.checkinRequestId) : undefined;
    if (!request || request.answeredAt || request.alarmId || request.closedAt) return { next: null, status: 'request_closed' };
    if (row.step === 'request_sms') {
      await this.sendSms(tx, emit, request, now);
      return { next: { step: 'missed', dueAt: request.dueAt, payload: row.payload }, status: 'request_sms_sent' };
    }
    return this.unanswered(tx, emit, request, now, owner);
  }

  private async sendSms(tx: Tx, emit: Emit, request: CheckinRequestRow, now: Date): Promise<void> {
    const worker = (await this.alarmsRepo.recipients(tx, [request.userId])).get(request.userId);
    const phone = dialable(worker?.phone);
    if (!phone) {
      const alert = systemAlertEvent(
        'worker_phone_missing',
        `No phone number known for ${workerLabel(worker?.name, request.userId)}: the request to check in went by push only`,
        now,
        request.userId,
      );
      await emit(alert.subject, alert.data);
      return;
    }
    const language = worker?.language ?? null;
    const by = await this.askerName(tx, request.requestedBy, request.requestedVia);
    const sms = requestEvent({
      channel: 'sms',
      toPhone: phone,
      userId: request.userId,
      purpose: 'checkin_request',
      body: translate(
        language,
        msg('LWS: {{name}} asks you to check in now. Open LWS and check in by {{time}}, or reply to this message with your PIN.'),
        { name: by, time: londonTime(request.dueAt) },
      ),
      since: now.toISOString(),
      ...(language ? { language } : {}),
    });
    await emit(sms.subject, sms.data);
  }

  /**
   * No check-in came in time. Shifts' word first: a check-in escalation has not heard of yet
   * answers it, and an ended shift closes it, each told to operators as a repair. Otherwise the
   * worker's alarm still escalating takes it, or a missed check-in alarm opens.
   */
  private async unanswered(tx: Tx, emit: Emit, request: CheckinRequestRow, now: Date, owner: OwnerAnswer): Promise<Fired> {
    const label = async () => workerLabel((await this.alarmsRepo.worker(tx, request.userId))?.name, request.userId);
    if (owner.kind === 'known') {
      const latest = owner.view.latestCheckIn ? new Date(owner.view.latestCheckIn.checkedInAt) : undefined;
      if (!owner.view.onShift) {
        await this.shiftEnded(tx, emit, request.userId, now);
        return { next: null, status: 'off_shift_at_owner' };
      }
      if (latest && latest.getTime() >= request.requestedAt.getTime()) {
        await this.checkedIn(tx, emit, request.userId, latest);
        const alert = systemAlertEvent(
          'deadline_reconciled',
          `${await label()} had checked in at ${londonTime(latest)}, but escalation had not heard yet: the request to check in was answered, no alarm raised`,
          now,
          request.userId,
        );
        await emit(alert.subject, alert.data);
        return { next: null, status: 'answered_at_owner' };
      }
    }
    const by = await this.askerName(tx, request.requestedBy, request.requestedVia);
    const line = `Asked to check in now by ${by} at ${londonTime(request.requestedAt)}; no check-in by ${londonTime(request.dueAt)}`;
    const joined = await this.repo.activeAlarm(tx, request.userId);
    if (joined) {
      await this.alarmsRepo.note(tx, joined, now, line);
      await this.repo.update(tx, request.id, { alarmId: joined });
      await emit('escalation.checkin_request.closed.v1', closedEvent({ ...request, alarmId: joined }, 'alarm', now).data);
      return { next: null, status: 'request_joined_alarm' };
    }
    const worker = await this.alarmsRepo.worker(tx, request.userId);
    const opened = await this.alarms.open(tx, emit, {
      kind: 'missed_check_in',
      userId: request.userId,
      now,
      dueAt: request.dueAt,
      shiftId: worker?.shiftId ?? null,
      location: worker?.location ?? null,
    });
    if (!opened) return { next: null, status: 'alarm_already_open' };
    await this.alarmsRepo.note(tx, opened.alarm.id, now, line);
    await this.repo.update(tx, request.id, { alarmId: opened.alarm.id });
    await emit('escalation.checkin_request.closed.v1', closedEvent({ ...request, alarmId: opened.alarm.id }, 'alarm', now).data);
    return { next: null, status: 'missed_check_in', opened: opened.alarm.id };
  }

  /**
   * The workers escalation's copy has off shift, whom shifts (the owner) has on shift: a shift
   * started a moment ago whose event is still on its way. Asked before the transaction, with no
   * row held; when shifts cannot answer, the copy decides.
   */
  private async onShiftAtOwner(req: Create['request']): Promise<Set<number>> {
    const by = req.userId !== undefined ? { userId: req.userId } : { teamId: req.teamId! };
    const offInCopy = (await this.uow.run((tx) => this.repo.workers(tx, by))).filter((w) => !w.onShift).map((w) => w.userId);
    const answers = offInCopy.length > 0 ? await this.owner.current(offInCopy) : new Map<number, OwnerAnswer>();
    return new Set([...answers].flatMap(([userId, a]) => (a.kind === 'known' && a.view.onShift ? [userId] : [])));
  }

  /** One worker (who must be on shift) or the team's workers on shift, within the admin's scope. */
  private async targets(tx: Tx, req: Create['request'], onShiftAtOwner: Set<number>) {
    const onShift = (w: WorkerRow) => w.onShift || onShiftAtOwner.has(w.userId);
    if (req.userId !== undefined) {
      const [worker] = await this.repo.workers(tx, { userId: req.userId });
      if (!worker || !ownsAlarm(req, { userId: worker.userId, teamId: worker.teamId }))
        throw new RpcError(404, 'Worker not found', { field: 'userId', code: 'worker_not_found' });
      if (!onShift(worker)) throw new RpcError(409, 'This worker is not on shift', { field: 'userId', code: 'not_on_shift' });
      return [worker];
    }
    const teamId = req.teamId!;
    if (req.teams && !req.teams.teamIds.includes(teamId))
      throw new RpcError(404, 'Team not found', { field: 'teamId', code: 'team_not_found' });
    const working = (await this.repo.workers(tx, { teamId })).filter(onShift);
    if (working.length === 0) throw new RpcError(409, 'Nobody in this team is on shift', { field: 'teamId', code: 'nobody_on_shift' });
    return working;
  }

  private async askerName(tx: Tx, userId: number, via: string | null): Promise<string> {
    return via ?? (await this.views.personName(tx, userId));
  }

  private async view(tx: Tx, rows: CheckinRequestRow[]): Promise<CheckInRequestBatch> {
    const first = rows[0];
    const names = await this.alarmsRepo.people(
      tx,
      rows.map((r) => r.userId),
    );
    const workers: CheckInRequestWorker[] = rows.map((r) => {
      const w: CheckInRequestWorker = { requestId: r.id, userId: r.userId, state: stateOf(r) };
      const name = names.get(r.userId)?.name;
      if (name) w.name = name;
      if (r.answeredAt) w.answeredAt = r.answeredAt.toISOString();
      if (r.alarmId) w.alarmId = r.alarmId;
      return w;
    });
    return {
      id: first.batchId,
      requestedBy: first.requestedBy,
      requestedByName: await this.askerName(tx, first.requestedBy, first.requestedVia),
      requestedAt: first.requestedAt.toISOString(),
      dueAt: first.dueAt.toISOString(),
      ...(first.askedTeamId !== null ? { teamId: first.askedTeamId } : {}),
      ...(first.requestedVia ? { viaToken: first.requestedVia } : {}),
      workers,
    };
  }
}

function stateOf(r: CheckinRequestRow): CheckInRequestWorker['state'] {
  if (r.answeredAt) return 'answered';
  if (r.alarmId) return 'alarm';
  if (r.closedAt) return 'ended';
  return 'waiting';
}

function closedEvent(
  r: CheckinRequestRow,
  outcome: 'answered' | 'alarm' | 'shift_ended',
  at: Date,
): { subject: 'escalation.checkin_request.closed.v1'; data: EventMap['escalation.checkin_request.closed.v1'] } {
  return {
    subject: 'escalation.checkin_request.closed.v1',
    data: {
      requestId: r.id,
      batchId: r.batchId,
      userId: r.userId,
      outcome,
      at: at.toISOString(),
      ...teamOf(r.teamId),
      ...(r.alarmId ? { alarmId: r.alarmId } : {}),
    },
  };
}
