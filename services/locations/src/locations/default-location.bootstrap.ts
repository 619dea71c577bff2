import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type Logger } from '@lws/platform';
import { LocationsService } from './locations.service';

/** Workers need somewhere to start a shift on a fresh install. */
@Injectable()
export class DefaultLocationBootstrap implements OnApplicationBootstrap {
  constructor(
    private readonly locations: LocationsService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const created = await this.locations.seedDefault();
    if (created) this.logger.info({ locationId: created.id, name: created.name }, 'default location created');
  }
}
