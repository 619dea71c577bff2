import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { CONFIG, LOGGER, SecretSealer, type BaseConfig, type Logger } from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { LocalSecrets } from '../provider/local-secrets';

export const SECRETS_KEY_MISSING = 'SECRETS_KEY must be set on the notifications service before a webhook endpoint can be made';

/**
 * Endpoints' signing secrets at rest: sealed (AES-256-GCM) under SECRETS_KEY, so a copy of the
 * database alone cannot forge LWS's webhooks.
 */
@Injectable()
export class WebhookSecrets implements OnModuleInit {
  private sealer = SecretSealer.none(SECRETS_KEY_MISSING);

  constructor(
    @Inject(CONFIG) private readonly config: NotificationsConfig & BaseConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly local: LocalSecrets,
  ) {}

  async onModuleInit(): Promise<void> {
    this.sealer = await SecretSealer.forService({
      secretsKey: this.config.SECRETS_KEY,
      production: this.config.NODE_ENV === 'production',
      localKey: () => this.local.get('secrets_key'),
      logger: this.logger,
      missing: SECRETS_KEY_MISSING,
    });
  }

  seal(secret: string): string {
    return this.sealer.seal(secret, 'secret');
  }

  /** Undefined when SECRETS_KEY is missing or is not the key that sealed it. */
  open(sealed: string): string | undefined {
    return this.sealer.open(sealed);
  }
}
