import { localSecret as kept, type Db } from '@lws/platform';
import { localSecrets } from './schema';

/**
 * A development-only secret generated once per database and kept across restarts; replicas
 * starting together agree on the first one written.
 */
export function localSecret(db: Db, name: string): Promise<string> {
  return kept(db, localSecrets, name);
}
