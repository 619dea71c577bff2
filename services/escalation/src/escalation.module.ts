import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { Outbox, type AnyEventEnvelope } from '@lws/messaging';
import { CLOCK, CONFIG, Consumers, type Clock, type Emit, type Tx } from '@lws/platform';
import { SERVICE_NAME, settingsFrom, SETTINGS, type EscalationConfig } from './config';
import { messaging } from './db/schema';
import { AlarmCommands } from './alarms/alarm-commands';
import { AlarmMessages } from './alarms/alarm-messages';
import { AlarmViews } from './alarms/alarm-views';
import { AlarmsController } from './alarms/alarms.controller';
import { AlarmsRepository } from './alarms/alarms.repository';
import { AlarmsService } from './alarms/alarms.service';
import { AlarmSteps } from './alarms/alarm-steps';
import { MissedAlarms } from './alarms/missed-alarms';
import { Notifier } from './alarms/notifier';
import { RequestTracker } from './alarms/request-tracker';
import { VisitNoteReads } from './alarms/visit-notes';
import { Auditor } from './deadlines/auditor';
import { CheckinRequestsController } from './checkin-requests/checkin-requests.controller';
import { CheckinRequestsRepository } from './checkin-requests/checkin-requests.repository';
import { CheckinRequestsService } from './checkin-requests/checkin-requests.service';
import { OnCallGapNotice } from './on-call/gap-notice';
import { CheckinsService } from './deadlines/checkins.service';
import { DeadlinesRepository } from './deadlines/deadlines.repository';
import { Scheduler } from './deadlines/scheduler';
import { ShiftsOwner } from './deadlines/shifts-owner';
import { AlarmMetrics } from './metrics/alarm-metrics';
import { RemindersController } from './reminders/reminders.controller';
import { RemindersService } from './reminders/reminders.service';
import { IdentitySide } from './reconcile/identity-side';
import { Reconciler } from './reconcile/reconciler';
import { ShiftsSide } from './reconcile/shifts-side';
import { PositionsRetention } from './workers/positions-retention';
import { WorkersProjection, type DueNow } from './workers/workers.projection';

@Module({
  controllers: [AlarmsController, RemindersController, CheckinRequestsController],
  providers: [
    { provide: SETTINGS, useFactory: (config: EscalationConfig) => settingsFrom(config), inject: [CONFIG] },
    // The scheduler's batched writes; single events still go through the unit of work's emit.
    { provide: Outbox, useFactory: (clock: Clock) => new Outbox({ tables: messaging, producer: SERVICE_NAME, clock }), inject: [CLOCK] },
    DeadlinesRepository,
    AlarmsRepository,
    Notifier,
    RequestTracker,
    AlarmsService,
    AlarmCommands,
    AlarmMessages,
    AlarmViews,
    AlarmSteps,
    MissedAlarms,
    CheckinsService,
    CheckinRequestsRepository,
    CheckinRequestsService,
    ShiftsOwner,
    AlarmMetrics,
    Scheduler,
    Auditor,
    OnCallGapNotice,
    ShiftsSide,
    IdentitySide,
    Reconciler,
    WorkersProjection,
    PositionsRetention,
    RemindersService,
    VisitNoteReads,
  ],
  exports: [Scheduler, Auditor, RequestTracker, Reconciler, OnCallGapNotice],
})
export class EscalationModule implements OnModuleInit {
  constructor(
    @Inject(Consumers) private readonly consumers: Consumers,
    private readonly workers: WorkersProjection,
    private readonly alarms: AlarmsService,
    private readonly scheduler: Scheduler,
    private readonly visitNotes: VisitNoteReads,
  ) {}

  onModuleInit(): void {
    this.consumers.register({
      name: 'identity',
      subjects: [
        'identity.user.created.v1',
        'identity.user.updated.v1',
        'identity.user.deleted.v1',
        'identity.settings.changed.v1',
        'identity.contact.changed.v1',
        'identity.team.changed.v1',
      ],
      handler: async (event, tx, emit) => {
        const e = event as AnyEventEnvelope;
        switch (e.subject) {
          case 'identity.user.created.v1':
            return this.workers.userCreated(tx, e.data);
          case 'identity.user.updated.v1':
            return this.workers.userUpdated(tx, e.data);
          case 'identity.user.deleted.v1':
            return this.workers.userDeleted(tx, emit, e.data);
          case 'identity.settings.changed.v1':
            return this.workers.settingsChanged(tx, e.data);
          case 'identity.contact.changed.v1':
            return this.workers.contactChanged(tx, e.data);
          case 'identity.team.changed.v1':
            return this.workers.teamChanged(tx, e.data);
        }
      },
    });
    this.consumers.register({
      name: 'shifts',
      subjects: [
        'shifts.shift.started.v1',
        'shifts.shift.ended.v1',
        'shifts.checkin.recorded.v1',
        'shifts.deadline.changed.v1',
        'shifts.emergency.raised.v1',
        'shifts.visit.started.v1',
        'shifts.visit.ended.v1',
        'shifts.visit.note_revealed.v1',
      ],
      handler: async (event, tx: Tx, emit, afterCommit) => {
        const dueNow = await this.shiftEvent(event as AnyEventEnvelope, tx, emit);
        // After the commit, or the pass it starts may not see the row yet.
        if (dueNow) afterCommit(() => this.scheduler.wake());
      },
    });
    this.consumers.register({
      name: 'calls',
      subjects: ['notifications.call.completed.v1'],
      handler: async (event, tx, emit) => {
        const e = event as AnyEventEnvelope;
        if (e.subject === 'notifications.call.completed.v1') await this.alarms.callCompleted(tx, emit, e.data);
      },
    });
  }

  private async shiftEvent(e: AnyEventEnvelope, tx: Tx, emit: Emit): Promise<DueNow> {
    switch (e.subject) {
      case 'shifts.shift.started.v1':
        return this.workers.shiftStarted(tx, e.data);
      case 'shifts.shift.ended.v1':
        return this.workers.shiftEnded(tx, emit, e.data);
      case 'shifts.checkin.recorded.v1':
        return this.workers.checkInRecorded(tx, emit, e.data);
      case 'shifts.deadline.changed.v1':
        return this.workers.deadlineChanged(tx, e.data);
      case 'shifts.emergency.raised.v1':
        return this.workers.emergencyRaised(tx, emit, e.data);
      case 'shifts.visit.started.v1':
        return this.workers.visitStarted(tx, e.data);
      case 'shifts.visit.ended.v1':
        return this.workers.visitEnded(tx, e.data);
      case 'shifts.visit.note_revealed.v1':
        await this.visitNotes.revealed(tx, e.data);
        return false;
      default:
        return false;
    }
  }
}
