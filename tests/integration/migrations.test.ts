import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const services = ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'];
const root = join(__dirname, '..', '..');

describe('committed migrations', () => {
  it.each(services)('%s: the schema has no change without a committed migration', async (service) => {
    const kit = await import('drizzle-kit/api');
    const schemaModule = await import(join(root, 'services', service, 'src', 'db', 'schema.ts'));
    const metaDir = join(root, 'services', service, 'drizzle', 'meta');
    const snapshots = readdirSync(metaDir)
      .filter((f) => f.endsWith('_snapshot.json'))
      .sort();
    expect(snapshots.length).toBeGreaterThan(0);
    const latest = JSON.parse(readFileSync(join(metaDir, snapshots[snapshots.length - 1]), 'utf8'));
    const current = kit.generateDrizzleJson(schemaModule, latest.id);
    const pending = await kit.generateMigration(latest, current);
    expect(pending).toEqual([]);
  });
});
