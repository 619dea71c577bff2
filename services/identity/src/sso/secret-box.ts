import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CONFIG, DB, LOGGER, SecretSealer, type BaseConfig, type Db, type Logger } from '@lws/platform';
import type { IdentityConfig } from '../config';
import { localSecret } from '../db/local-secret';

const LOCAL_KEY_NAME = 'secrets_key';

export const SECRETS_KEY_MISSING = 'SECRETS_KEY must be set on the identity service before a client secret can be stored';

/**
 * Seals secrets kept in the database (AES-256-GCM under SECRETS_KEY), so a copy of the database
 * alone does not hand over the organisation's OIDC client. Without the key in production nothing
 * is sealed: storing a secret is refused, and the environment can still provide it.
 */
@Injectable()
export class SecretBox implements OnModuleInit {
  private sealer = SecretSealer.none(SECRETS_KEY_MISSING);

  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig & BaseConfig,
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    this.sealer = await SecretSealer.forService({
      secretsKey: this.config.SECRETS_KEY,
      production: this.config.NODE_ENV === 'production',
      localKey: () => localSecret(this.db, LOCAL_KEY_NAME),
      logger: this.logger,
      missing: SECRETS_KEY_MISSING,
    });
  }

  seal(plain: string, field: string): string {
    return this.sealer.seal(plain, field);
  }

  /** Undefined when the key is missing or is not the one that sealed it (the secret must be set again). */
  open(sealed: string): string | undefined {
    return this.sealer.open(sealed);
  }
}
