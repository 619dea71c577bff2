import { Inject, Injectable } from '@nestjs/common';
import { DB, localSecret, type Db } from '@lws/platform';
import { localSecrets } from '../db/schema';

/**
 * Development-only secrets generated on first start and kept in the database, so they survive
 * restarts and replicas starting together agree on the first one written.
 */
@Injectable()
export class LocalSecrets {
  constructor(@Inject(DB) private readonly db: Db) {}

  get(name: string, generate?: () => string): Promise<string> {
    return localSecret(this.db, localSecrets, name, generate);
  }
}
