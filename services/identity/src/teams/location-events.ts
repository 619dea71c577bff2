import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { AnyEventEnvelope } from '@lws/messaging';
import { Consumers } from '@lws/platform';
import { TeamsService } from './teams.service';

/** What identity hears from the locations service: a deleted location leaves the teams that listed it. */
@Injectable()
export class LocationEvents implements OnModuleInit {
  constructor(
    @Inject(Consumers) private readonly consumers: Consumers,
    private readonly teams: TeamsService,
  ) {}

  onModuleInit(): void {
    this.consumers.register({
      name: 'locations',
      subjects: ['locations.location.deleted.v1'],
      handler: async (event, tx, emit) => {
        const e = event as AnyEventEnvelope;
        if (e.subject === 'locations.location.deleted.v1') await this.teams.forgetLocation(tx, emit, e.data.locationId, e.data.deletedBy);
      },
    });
  }
}
