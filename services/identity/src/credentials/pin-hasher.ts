import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { CONFIG, ConfigError, DB, LOGGER, type BaseConfig, type Db, type Logger } from '@lws/platform';
import type { IdentityConfig } from '../config';
import { localSecret } from '../db/local-secret';

const LOCAL_KEY_NAME = 'pin_hash_key';

/**
 * PINs are stored as HMAC-SHA256 under a server key: a stolen database alone cannot be
 * brute-forced over the 10,000 possible PINs without the key. Every PIN check names its user
 * first (PINs are not unique), then compares in constant time.
 */
@Injectable()
export class PinHasher implements OnModuleInit {
  private key?: Buffer;

  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig & BaseConfig,
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.PIN_HASH_KEY) {
      this.key = Buffer.from(this.config.PIN_HASH_KEY, 'utf8');
      return;
    }
    if (this.config.NODE_ENV === 'production') {
      throw new ConfigError([{ variable: 'PIN_HASH_KEY', message: 'is required in production (at least 32 characters)' }]);
    }
    this.key = Buffer.from(await localSecret(this.db, LOCAL_KEY_NAME), 'utf8');
    this.logger.warn(
      'PIN_HASH_KEY is not set: PINs are hashed with a generated key kept in the database, for development only; set PIN_HASH_KEY in production',
    );
  }

  hash(pin: string): string {
    if (!this.key) throw new Error('PinHasher used before its key was loaded');
    return createHmac('sha256', this.key).update(pin, 'utf8').digest('hex');
  }

  matches(storedHash: string, pin: string): boolean {
    const a = Buffer.from(storedHash, 'hex');
    const b = Buffer.from(this.hash(pin), 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  randomPin(): string {
    return String(randomInt(0, 10_000)).padStart(4, '0');
  }
}
