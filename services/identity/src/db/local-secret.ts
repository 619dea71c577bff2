import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '@lws/platform';
import { localSecrets } from './schema';

/**
 * A development-only secret generated once per database and kept across restarts; replicas
 * starting together agree on the first one written.
 */
export async function localSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(localSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing({ target: localSecrets.name });
  const [row] = await db.select().from(localSecrets).where(eq(localSecrets.name, name));
  return row.value;
}
