import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { openDatabase } from './database';

const migrationsFolder = join(__dirname, '..', '..', '..', 'services', 'identity', 'drizzle');
const logger = pino({ level: 'silent' });

/** The system identifier initdb gave the cluster: a copy keeps it, a cluster made anew gets its own. */
async function clusterId(dataDir: string, service: string, templateDir?: string): Promise<string> {
  const database = await openDatabase({ service, dataDir, templateDir, migrationsFolder, logger });
  try {
    const r = await database.db.execute(sql`select system_identifier::text as id from pg_control_system()`);
    return (r as unknown as { rows: { id: string }[] }).rows[0].id;
  } finally {
    await database.close();
  }
}

describe('embedded databases (PGlite)', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'lws-pglite-test-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('starts each new service database as a copy of one empty cluster, kept where it was told, and migrates it', async () => {
    const templates = tempDir();
    const a = tempDir();
    const b = tempDir();
    const first = await clusterId(a, 'identity', templates);
    const second = await clusterId(a, 'audit', templates);
    const third = await clusterId(b, 'identity', templates);
    // One cluster made for all three: the template, built once for this PGlite version.
    expect(new Set([first, second, third]).size).toBe(1);
    expect(readdirSync(templates)).toEqual([expect.stringMatching(/^pglite-\d+\.\d+\.\d+/)]);

    const database = await openDatabase({ service: 'audit', dataDir: a, templateDir: templates, migrationsFolder, logger });
    try {
      const r = await database.db.execute(sql`select count(*)::int as n from drizzle.audit_migrations`);
      expect((r as unknown as { rows: { n: number }[] }).rows[0].n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('reopens an existing database as it was, and keeps the template inside the data dir unless told otherwise', async () => {
    const a = tempDir();
    const opened = await openDatabase({ service: 'identity', dataDir: a, migrationsFolder, logger });
    await opened.db.execute(sql`create table kept (note text)`);
    await opened.db.execute(sql`insert into kept values ('still here')`);
    await opened.close();

    const again = await openDatabase({ service: 'identity', dataDir: a, migrationsFolder, logger });
    try {
      const r = await again.db.execute(sql`select note from kept`);
      expect((r as unknown as { rows: { note: string }[] }).rows).toEqual([{ note: 'still here' }]);
    } finally {
      await again.close();
    }
    expect(readdirSync(a).sort()).toEqual(['.pglite-template', 'identity']);
  }, 120_000);
});
