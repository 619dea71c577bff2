import { Inject, Injectable } from '@nestjs/common';
import { eq } from 'drizzle-orm';
import { DB, type Db } from '@lws/platform';
import { localSecrets } from '../db/schema';

/**
 * Development-only secrets generated on first start and kept in the database, so they survive
 * restarts and replicas starting together agree on the first one written.
 */
@Injectable()
export class LocalSecrets {
  constructor(@Inject(DB) private readonly db: Db) {}

  async get(name: string, generate: () => string): Promise<string> {
    await this.db.insert(localSecrets).values({ name, value: generate() }).onConflictDoNothing({ target: localSecrets.name });
    const [row] = await this.db.select().from(localSecrets).where(eq(localSecrets.name, name));
    return row.value;
  }
}
