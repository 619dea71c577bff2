import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CONFIG, DB, LOGGER, localSecret, SecretSealer, type BaseConfig, type Db, type Logger } from '@lws/platform';
import type { ShiftsConfig } from '../config';
import { localSecrets } from '../db/schema';

export const SECRETS_KEY_MISSING = 'SECRETS_KEY must be set on the shifts service before a visit note can be kept';

/**
 * Visit notes at rest: sealed (AES-256-GCM) under SECRETS_KEY, so a copy of the database alone
 * does not hand over what a worker wrote about a risky visit.
 */
@Injectable()
export class VisitNotes implements OnModuleInit {
  private sealer = SecretSealer.none(SECRETS_KEY_MISSING);

  constructor(
    @Inject(CONFIG) private readonly config: ShiftsConfig & BaseConfig,
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    this.sealer = await SecretSealer.forService({
      secretsKey: this.config.SECRETS_KEY,
      production: this.config.NODE_ENV === 'production',
      localKey: () => localSecret(this.db, localSecrets, 'secrets_key'),
      logger: this.logger,
      missing: SECRETS_KEY_MISSING,
    });
  }

  /** 409 naming `note` when no key is set (production without SECRETS_KEY). */
  seal(note: string): string {
    return this.sealer.seal(note, 'note');
  }

  /** Undefined when SECRETS_KEY is missing or is not the key that sealed it. */
  open(sealed: string): string | undefined {
    return this.sealer.open(sealed);
  }
}
