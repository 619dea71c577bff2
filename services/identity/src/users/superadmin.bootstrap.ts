import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ANNOUNCE, CONFIG, LOGGER, UnitOfWork, type Announce, type Logger } from '@lws/platform';
import type { IdentityConfig } from '../config';
import { PasswordHasher } from './password-hasher';
import { UsersRepository } from './users.repository';
import { TeamsService } from '../teams/teams.service';
import { TeamIntervals } from '../teams/team-intervals';

/**
 * The first start creates the superadmin. A generated password is shown once on the
 * terminal and never logged; afterwards only its hash exists. Then (every start) the other services
 * are told of any team they have not heard of (the "Default" a migration made), and a worker whose
 * own check-in interval their team does not allow is brought within the team's policy.
 */
@Injectable()
export class SuperadminBootstrap implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(ANNOUNCE) private readonly announce: Announce,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    private readonly repo: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly teams: TeamsService,
    private readonly intervals: TeamIntervals,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.createSuperadmin();
    const told = await this.teams.announceUnheard();
    if (told > 0) this.logger.info({ teams: told }, 'told the other services of teams made by a migration');
    const brought = await this.intervals.bringAllWithin();
    if (brought > 0)
      this.logger.info({ workers: brought }, 'gave workers whose check-in interval their team does not allow the nearest one it does');
  }

  private async createSuperadmin(): Promise<void> {
    if (await this.repo.anyWithRole('superadmin')) return;
    const username = this.config.LWS_SUPERADMIN_USERNAME;
    const generated = !this.config.LWS_SUPERADMIN_PASSWORD;
    const password = this.config.LWS_SUPERADMIN_PASSWORD ?? generatePassword();
    const passwordHash = await this.hasher.hash(password);
    const created = await this.uow.run(async (tx, emit) => {
      const row = await this.repo.insert(tx, { username, passwordHash, name: 'Super Admin', role: 'superadmin' });
      if (row) {
        await emit('identity.user.created.v1', { userId: row.id, username, name: row.name, role: 'superadmin', version: row.version });
      }
      return row;
    });
    if (!created) {
      this.logger.error({ username }, 'cannot create the superadmin: the username is taken by another account');
      return;
    }
    this.logger.info({ username, generated }, 'superadmin account created');
    this.announce(
      generated
        ? `Superadmin created. Username: ${username}  Password: ${password}\n  (shown once: store it now; it is never printed or logged again)`
        : `Superadmin created. Username: ${username}  Password: from LWS_SUPERADMIN_PASSWORD`,
    );
  }
}

function generatePassword(): string {
  // 18 random bytes → 24 base64url characters (~144 bits); a fixed suffix meets the change-password policy.
  return `${randomBytes(18).toString('base64url')}A1`;
}
