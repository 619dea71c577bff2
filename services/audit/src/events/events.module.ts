import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { AnyEventEnvelope } from '@lws/messaging';
import { Consumers, type ConsumerRegistration } from '@lws/platform';
import { EntriesModule } from '../entries/entries.module';
import { EntriesService } from '../entries/entries.service';
import type { DescribedEvent } from '../entries/describe';
import { UsersProjection } from './users.projection';

/**
 * Audit's durable consumers: every domain event that belongs in the activity log, and identity's
 * user events for the usernames and the purge. One consumer per producing service, so a backlog
 * of one does not hold up the others.
 */
@Module({ imports: [EntriesModule], providers: [UsersProjection] })
export class EventsModule implements OnModuleInit {
  constructor(
    @Inject(Consumers) private readonly consumers: Consumers,
    private readonly entries: EntriesService,
    private readonly users: UsersProjection,
  ) {}

  onModuleInit(): void {
    this.consumers.register({
      name: 'identity',
      subjects: [
        'identity.user.created.v1',
        'identity.user.updated.v1',
        'identity.user.deleted.v1',
        'identity.pin.locked.v1',
        'identity.user.deactivated.v1',
        'identity.user.reactivated.v1',
        'identity.team.changed.v1',
        'identity.api_token.created.v1',
        'identity.api_token.revoked.v1',
      ],
      handler: async (event, tx, emit) => {
        const e = event as AnyEventEnvelope;
        switch (e.subject) {
          // A change by the organisation's directory is also an entry, written once the name is known.
          case 'identity.user.created.v1':
            await this.users.created(tx, e.data);
            return e.data.directory ? this.entries.recordEvent(tx, emit, e) : undefined;
          case 'identity.user.updated.v1':
            await this.users.updated(tx, e.data);
            return e.data.directory ? this.entries.recordEvent(tx, emit, e) : undefined;
          case 'identity.team.changed.v1':
            return e.data.directory ? this.entries.recordEvent(tx, emit, e) : undefined;
          case 'identity.user.deleted.v1':
            return this.entries.userDeleted(tx, emit, e.data, e.id, new Date(e.occurredAt));
          case 'identity.pin.locked.v1':
          case 'identity.user.deactivated.v1':
          case 'identity.user.reactivated.v1':
          case 'identity.api_token.created.v1':
          case 'identity.api_token.revoked.v1':
            return this.entries.recordEvent(tx, emit, e);
        }
      },
    });
    const log: ConsumerRegistration['handler'] = (event, tx, emit) => this.entries.recordEvent(tx, emit, event as DescribedEvent);
    // A flood (an alarm storm, a shift change) is logged a batch of events per transaction.
    const logMany: ConsumerRegistration['batchHandler'] = (events, tx, emit) =>
      this.entries.recordEvents(tx, emit, events as DescribedEvent[]);
    this.consumers.register({
      name: 'shifts',
      subjects: [
        'shifts.shift.started.v1',
        'shifts.shift.ended.v1',
        'shifts.checkin.recorded.v1',
        'shifts.emergency.raised.v1',
        'shifts.deadline.changed.v1',
        'shifts.visit.started.v1',
        'shifts.visit.ended.v1',
        'shifts.visit.note_revealed.v1',
      ],
      handler: log,
      batchHandler: logMany,
    });
    this.consumers.register({
      name: 'escalation',
      subjects: [
        'escalation.alarm.opened.v1',
        'escalation.alarm.acknowledged.v1',
        'escalation.alarm.resolved.v1',
        'escalation.alarm.escalated.v1',
        'escalation.alarm.late_check_in.v1',
        'escalation.alarm.worker_safe.v1',
        'escalation.alarm.pressed_again.v1',
        'escalation.alarm.note_added.v1',
        'escalation.checkin_request.created.v1',
        'escalation.checkin_request.closed.v1',
        'escalation.system_alert.raised.v1',
      ],
      handler: log,
      batchHandler: logMany,
    });
    this.consumers.register({
      name: 'notifications',
      subjects: ['notifications.message.sent.v1', 'notifications.call.completed.v1'],
      handler: log,
      batchHandler: logMany,
    });
  }
}
