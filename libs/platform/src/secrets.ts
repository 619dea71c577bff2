import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { RpcError } from '@lws/messaging';
import type { Db } from './database';
import type { Logger } from './logger';

/** The sealed form's version, so a later format can be told apart from this one. */
const VERSION = 'v1';

/**
 * A development-only secret generated once per database and kept across restarts, in the
 * service's `local_secrets` table (name primary key, value); replicas starting together agree on
 * the first one written.
 */
export async function localSecret(
  db: Db,
  table: PgTable,
  name: string,
  generate: () => string = () => randomBytes(32).toString('base64url'),
): Promise<string> {
  await db.execute(sql`insert into ${table} (name, value) values (${name}, ${generate()}) on conflict (name) do nothing`);
  const { rows } = (await db.execute(sql`select value from ${table} where name = ${name}`)) as unknown as { rows: { value: string }[] };
  return rows[0].value;
}

/**
 * Seals secrets kept in a service's database with AES-256-GCM under SECRETS_KEY, so a copy of the
 * database alone does not hand them over. Without a key nothing is sealed: storing a secret is
 * refused (409 naming the field, with `missing` as the message), and opening one answers undefined.
 */
export class SecretSealer {
  private constructor(
    private readonly key: Buffer | undefined,
    private readonly missing: string,
  ) {}

  /** A sealer under `secret` (any length: it is hashed to the AES key). */
  static withKey(secret: string, missing: string): SecretSealer {
    return new SecretSealer(createHash('sha256').update(secret, 'utf8').digest(), missing);
  }

  /** A sealer that seals nothing (production without SECRETS_KEY). */
  static none(missing: string): SecretSealer {
    return new SecretSealer(undefined, missing);
  }

  /**
   * A service's sealer: under SECRETS_KEY when set; outside production, under a key generated once
   * and kept in the database (with a warning, as it then sits beside what it seals); in production
   * without the key, none.
   */
  static async forService(options: {
    secretsKey: string | undefined;
    production: boolean;
    localKey: () => Promise<string>;
    logger: Pick<Logger, 'warn'>;
    missing: string;
  }): Promise<SecretSealer> {
    if (options.secretsKey) return SecretSealer.withKey(options.secretsKey, options.missing);
    if (options.production) return SecretSealer.none(options.missing);
    const sealer = SecretSealer.withKey(await options.localKey(), options.missing);
    options.logger.warn(
      'SECRETS_KEY is not set: stored secrets are sealed with a generated key kept in the database, for development only',
    );
    return sealer;
  }

  get canSeal(): boolean {
    return this.key !== undefined;
  }

  /** The secret sealed; `field` names the input a refusal points at. */
  seal(plain: string, field: string): string {
    if (!this.key) throw new RpcError(409, this.missing, { field });
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
