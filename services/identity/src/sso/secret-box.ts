import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { RpcError } from '@lws/messaging';
import { CONFIG, DB, LOGGER, type BaseConfig, type Db, type Logger } from '@lws/platform';
import type { IdentityConfig } from '../config';
import { localSecret } from '../db/local-secret';

const LOCAL_KEY_NAME = 'secrets_key';
const VERSION = 'v1';

export const SECRETS_KEY_MISSING = 'SECRETS_KEY must be set on the identity service before a client secret can be stored';

/**
 * Seals secrets kept in the database (AES-256-GCM under SECRETS_KEY), so a copy of the database
 * alone does not hand over the organisation's OIDC client. Without the key in production nothing
 * is sealed: storing a secret is refused, and the environment can still provide it.
 */
@Injectable()
export class SecretBox implements OnModuleInit {
  private key?: Buffer;

  constructor(
    @Inject(CONFIG) private readonly config: IdentityConfig & BaseConfig,
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.SECRETS_KEY) {
      this.key = createHash('sha256').update(this.config.SECRETS_KEY, 'utf8').digest();
      return;
    }
    if (this.config.NODE_ENV === 'production') return;
    this.key = createHash('sha256')
      .update(await localSecret(this.db, LOCAL_KEY_NAME), 'utf8')
      .digest();
    this.logger.warn('SECRETS_KEY is not set: stored secrets are sealed with a generated key kept in the database, for development only');
  }

  seal(plain: string, field: string): string {
    if (!this.key) throw new RpcError(409, SECRETS_KEY_MISSING, { field });
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** Undefined when the key is missing or is not the one that sealed it (the secret must be set again). */
  open(sealed: string): string | undefined {
    const [version, packed] = sealed.split('.');
    if (!this.key || version !== VERSION || !packed) return undefined;
    const raw = Buffer.from(packed, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
