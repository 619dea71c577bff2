import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import webpush from 'web-push';
import { CONFIG, ConfigError, LOGGER, type BaseConfig, type Logger } from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { LocalSecrets } from '../provider/local-secrets';

const DEV_SUBJECT = 'mailto:lws-development@example.invalid';

/**
 * The VAPID key pair push messages are signed with. From configuration; outside production,
 * when unset, generated once and kept in the database so browsers' subscriptions (made against
 * the public key) stay valid across restarts.
 */
@Injectable()
export class VapidKeys implements OnModuleInit {
  publicKey = '';
  privateKey = '';
  subject = '';

  constructor(
    @Inject(CONFIG) private readonly config: NotificationsConfig & BaseConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    private readonly secrets: LocalSecrets,
  ) {}

  async onModuleInit(): Promise<void> {
    const c = this.config;
    if (c.NODE_ENV === 'production') {
      const missing = (['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const).filter((v) => !c[v]);
      if (missing.length > 0) throw new ConfigError(missing.map((variable) => ({ variable, message: 'is required in production' })));
    }
    if (Boolean(c.VAPID_PUBLIC_KEY) !== Boolean(c.VAPID_PRIVATE_KEY)) {
      const variable = c.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY';
      throw new ConfigError([{ variable, message: 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together' }]);
    }
    this.subject = c.VAPID_SUBJECT ?? DEV_SUBJECT;
    if (c.VAPID_PUBLIC_KEY && c.VAPID_PRIVATE_KEY) {
      this.publicKey = c.VAPID_PUBLIC_KEY;
      this.privateKey = c.VAPID_PRIVATE_KEY;
      return;
    }
    const stored = JSON.parse(await this.secrets.get('vapid_keys', () => JSON.stringify(webpush.generateVAPIDKeys()))) as {
      publicKey: string;
      privateKey: string;
    };
    this.publicKey = stored.publicKey;
    this.privateKey = stored.privateKey;
    this.logger.warn('VAPID keys are not configured: using a generated pair kept in the database, for development only');
  }
}
