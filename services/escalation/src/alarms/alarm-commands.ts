import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock } from '@lws/platform';
import { alarmKey, DeadlinesRepository } from '../deadlines/deadlines.repository';
import { ownsAlarm } from './alarm-scope';
import { resolved } from './alarm-state';
import { labelOf, teamOf } from './alarm-steps';
import { AlarmViews, type AlarmView } from './alarm-views';
import { AlarmsRepository } from './alarms.repository';
import { londonTime, outcomeText, WORKER_TEXT } from './messages';

/**
 * What people do to an alarm: monitors acknowledge and resolve it, the worker reads their own
 * emergency and says they are safe. Each locks the alarm's deadline row before the alarm row, in
 * the order the steps (AlarmsService) take them.
 */
@Injectable()
export class AlarmCommands {
  constructor(
    private readonly repo: AlarmsRepository,
    private readonly deadlines: DeadlinesRepository,
    private readonly views: AlarmViews,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // ---- Monitors ----

  async acknowledge(req: CommandMap['escalation.alarm.acknowledge.v1']['request']): Promise<{ alarm: AlarmView }> {
    return this.uow.run(async (tx, emit) => {
      await this.deadlines.lock(tx, alarmKey(req.alarmId));
      const alarm = await this.repo.lock(tx, req.alarmId);
      if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
      if (resolved(alarm)) throw new RpcError(409, 'Alarm already resolved', { code: 'alarm_resolved' });
      if (alarm.acknowledgedAt) return { alarm: await this.views.view(tx, alarm) };
      const now = this.clock();
      const set = {
        state: 'acknowledged' as const,
        acknowledgedBy: req.byUserId,
        acknowledgedAt: now,
        acknowledgedVia: req.viaToken ?? null,
      };
      await this.repo.update(tx, alarm.id, set);
      const by = req.viaToken ?? (await this.views.personName(tx, req.byUserId));
      const history = req.viaToken
        ? `Acknowledged by ${by} (API token of ${await this.views.personName(tx, req.byUserId)})`
        : `Acknowledged by ${by}`;
      await this.repo.note(tx, alarm.id, now, history, WORKER_TEXT.dealing(by === 'a monitor' ? null : by));
      await emit('escalation.alarm.acknowledged.v1', {
        alarmId: alarm.id,
        userId: alarm.userId,
        byUserId: req.byUserId,
        at: now.toISOString(),
        ...(alarm.duress ? { duress: true } : {}),
        ...teamOf(alarm.teamId),
        ...(req.viaToken ? { viaToken: req.viaToken } : {}),
      });
      return { alarm: await this.views.view(tx, { ...alarm, ...set }) };
    });
  }

  async resolve(req: CommandMap['escalation.alarm.resolve.v1']['request']): Promise<{ alarm: AlarmView }> {
    return this.uow.run(async (tx, emit) => {
      await this.deadlines.lock(tx, alarmKey(req.alarmId));
      const alarm = await this.repo.lock(tx, req.alarmId);
      if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
      if (resolved(alarm)) throw new RpcError(409, 'Alarm already resolved', { code: 'alarm_resolved' });
      const now = this.clock();
      const set = {
        state: 'resolved' as const,
        acknowledgedBy: alarm.acknowledgedBy ?? req.byUserId,
        acknowledgedAt: alarm.acknowledgedAt ?? now,
        acknowledgedVia: alarm.acknowledgedAt ? alarm.acknowledgedVia : (req.viaToken ?? null),
        resolvedBy: req.byUserId,
        resolvedAt: now,
        resolvedVia: req.viaToken ?? null,
        verdict: req.verdict,
        severity: req.verdict === 'genuine' ? (req.severity ?? null) : null,
        reason: req.verdict === 'false_alarm' ? (req.reason ?? null) : null,
        note: req.note,
      };
      await this.repo.update(tx, alarm.id, set);
      await this.deadlines.remove(tx, alarmKey(alarm.id));
      const person = await this.views.personName(tx, req.byUserId);
      const by = req.viaToken ? `${req.viaToken} (API token of ${person})` : person;
      await this.repo.note(tx, alarm.id, now, `Resolved by ${by} (${outcomeText(set)})`);
      await emit('escalation.alarm.resolved.v1', {
        alarmId: alarm.id,
        userId: alarm.userId,
        byUserId: req.byUserId,
        at: now.toISOString(),
        verdict: req.verdict,
        note: req.note,
        ...(set.severity ? { severity: set.severity } : {}),
        ...(set.reason ? { reason: set.reason } : {}),
        ...(alarm.duress ? { duress: true } : {}),
        ...teamOf(alarm.teamId),
        ...(req.viaToken ? { viaToken: req.viaToken } : {}),
      });
      return { alarm: await this.views.view(tx, { ...alarm, ...set }) };
    });
  }

  /**
   * A line on the history from whoever handles the alarm, open or already resolved (a receiving
   * centre reports what the police found after closing it). For monitors only: the worker's screen
   * never shows it, so a note on a duress alarm gives nothing away.
   */
  async addNote(req: CommandMap['escalation.alarm.add_note.v1']['request']): Promise<{ alarm: AlarmView }> {
    return this.uow.run(async (tx, emit) => {
      const alarm = await this.repo.lock(tx, req.alarmId);
      if (!alarm || !ownsAlarm(req, alarm)) throw new RpcError(404, 'Alarm not found', { code: 'alarm_not_found' });
      const now = this.clock();
      const person = await this.views.personName(tx, req.byUserId);
      const by = req.viaToken ? `${req.viaToken} (API token of ${person})` : person;
      await this.repo.note(tx, alarm.id, now, `Note from ${by}: ${req.text}`);
      await emit('escalation.alarm.note_added.v1', {
        alarmId: alarm.id,
        userId: alarm.userId,
        byUserId: req.byUserId,
        text: req.text,
        at: now.toISOString(),
        ...(alarm.duress ? { duress: true } : {}),
        ...teamOf(alarm.teamId),
        ...(req.viaToken ? { viaToken: req.viaToken } : {}),
      });
      return { alarm: await this.views.view(tx, alarm) };
    });
  }

  // ---- The worker's own emergency screen ----

  /** The worker's newest emergency not yet resolved, as their screen shows it. */
  async own(req: CommandMap['escalation.alarm.own.v1']['request']): Promise<CommandMap['escalation.alarm.own.v1']['reply']> {
    return this.uow.run(async (tx) => {
      const [alarm] = await this.repo.ownEmergencies(tx, req.userId);
      return alarm ? { alarm: await this.views.workerView(tx, alarm) } : {};
    });
  }

  /**
   * The worker says they are safe (the gateway has checked their PIN): every emergency of theirs
   * still open stops escalating and waits for a monitor to confirm it as a false alarm. Under
   * duress (the duress PIN) their screen shows exactly the same, but nothing stops: the history
   * tells monitors, and the gateway has raised a duress emergency besides.
   */
  async markSafe(
    req: CommandMap['escalation.alarm.mark_safe.v1']['request'],
  ): Promise<CommandMap['escalation.alarm.mark_safe.v1']['reply']> {
    return this.uow.run(async (tx, emit) => {
      const asked = await this.repo.find(tx, req.alarmId);
      if (!asked || asked.userId !== req.userId || asked.kind !== 'emergency' || asked.duress) {
        throw new RpcError(404, 'Emergency not found', { code: 'alarm_not_found' });
      }
      if (resolved(asked)) throw new RpcError(409, 'A monitor has already closed this emergency', { code: 'alarm_resolved' });
      const now = this.clock();
      const underDuress = req.underDuress === true;
      for (const candidate of await this.repo.ownEmergencies(tx, req.userId)) {
        await this.deadlines.lock(tx, alarmKey(candidate.id));
        const alarm = await this.repo.lock(tx, candidate.id);
        if (!alarm || resolved(alarm) || alarm.workerSafeAt) continue;
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
          await emit('escalation.alarm.worker_safe.v1', {
            alarmId: alarm.id,
            userId: alarm.userId,
            at: now.toISOString(),
            underDuress: true,
            ...teamOf(alarm.teamId),
          });
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
        await emit('escalation.alarm.worker_safe.v1', {
          alarmId: alarm.id,
          userId: alarm.userId,
          at: now.toISOString(),
          ...teamOf(alarm.teamId),
        });
      }
      const current = await this.repo.find(tx, asked.id);
      return { alarm: await this.views.workerView(tx, current!) };
    });
  }
}
