import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import type { AnyEventEnvelope } from '@lws/messaging';
import { CLOCK, Consumers, type Clock } from '@lws/platform';
import { ShiftsModule } from '../shifts/shifts.module';
import { WorkersModule } from '../workers/workers.module';
import { IdentityProjection } from './identity.projection';
import { LocationsRepository } from './locations.repository';

/** What shifts learns from other services, only ever through their events. */
@Module({
  imports: [WorkersModule, ShiftsModule],
  providers: [IdentityProjection],
})
export class ProjectionsModule implements OnModuleInit {
  constructor(
    @Inject(Consumers) private readonly consumers: Consumers,
    private readonly identity: IdentityProjection,
    private readonly locations: LocationsRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.consumers.register({
      name: 'identity-users',
      subjects: [
        'identity.user.created.v1',
        'identity.user.updated.v1',
        'identity.user.deleted.v1',
        'identity.settings.changed.v1',
        'identity.user.deactivated.v1',
      ],
      handler: async (event, tx, emit) => {
        const e = event as AnyEventEnvelope;
        switch (e.subject) {
          case 'identity.user.created.v1':
            return this.identity.userCreated(tx, e.data);
          case 'identity.user.updated.v1':
            return this.identity.userUpdated(tx, e.data);
          case 'identity.user.deleted.v1':
            return this.identity.userDeleted(tx, emit, e.data);
          case 'identity.settings.changed.v1':
            return this.identity.settingsChanged(tx, e.data);
          case 'identity.user.deactivated.v1':
            return this.identity.userDeactivated(tx, emit, e.data);
        }
      },
    });
    this.consumers.register({
      name: 'locations',
      subjects: ['locations.location.created.v1', 'locations.location.updated.v1', 'locations.location.deleted.v1'],
      handler: async (event, tx) => {
        const e = event as AnyEventEnvelope;
        switch (e.subject) {
          case 'locations.location.created.v1':
            return this.locations.created(tx, e.data);
          case 'locations.location.updated.v1':
            return this.locations.updated(tx, e.data);
          case 'locations.location.deleted.v1':
            return this.locations.deleted(tx, e.data.locationId, this.clock());
        }
      },
    });
  }
}
