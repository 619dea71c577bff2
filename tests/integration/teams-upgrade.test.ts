import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createLogger, openDatabase } from '@lws/platform';
import { createTestDatabase, type TestDatabase } from '@lws/testing';

/**
 * An upgraded single-team deployment keeps working unchanged: identity's database as it
 * was before teams, with admins and workers in it, gets the teams migration. Every worker is then
 * in "Default", which every admin monitors in the order they were created.
 */
describe('teams migration on an existing deployment', () => {
  let db: TestDatabase;
  let pg: Client;
  let before: string;
  const folder = join(__dirname, '..', '..', 'services', 'identity', 'drizzle');

  beforeAll(async () => {
    db = await createTestDatabase();
    pg = new Client({ connectionString: db.url });
    await pg.connect();
    // The migrations up to the one before teams.
    before = mkdtempSync(join(tmpdir(), 'lws-identity-before-teams-'));
    cpSync(folder, before, { recursive: true });
    const journal = JSON.parse(readFileSync(join(before, 'meta', '_journal.json'), 'utf8'));
    const teamsIndex = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith('_teams'));
    expect(teamsIndex).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, teamsIndex);
    writeFileSync(join(before, 'meta', '_journal.json'), JSON.stringify(journal));
  }, 60_000);

  afterAll(async () => {
    await pg?.end();
    await db?.drop();
    rmSync(before, { recursive: true, force: true });
  });

  const open = async (migrationsFolder: string) =>
    // dataDir is for the embedded database only; this one is PostgreSQL.
    openDatabase({
      service: 'identity',
      databaseUrl: db.url,
      dataDir: tmpdir(),
      migrationsFolder,
      logger: createLogger('identity', 'silent'),
    });

  it('puts every worker in "Default", monitored by every admin in creation order', async () => {
    const old = await open(before);
    await old.close();
    const insert = (username: string, role: string) =>
      pg
        .query(`insert into identity.users (username, password_hash, name, role) values ($1, 'x', $1, $2) returning id`, [username, role])
        .then((r) => r.rows[0].id as number);
    const admins = [await insert('admin.b', 'admin'), await insert('admin.a', 'admin')];
    const workers = [await insert('worker.a', 'worker'), await insert('worker.b', 'worker'), await insert('worker.c', 'worker')];
    const boss = await insert('boss', 'superadmin');

    const upgraded = await open(folder);
    await upgraded.close();
    const { rows: teams } = await pg.query('select id, name, monitors, default_interval, allowed_intervals from identity.teams');
    expect(teams).toEqual([
      {
        id: expect.any(Number),
        name: 'Default',
        monitors: admins.map((userId) => ({ userId })),
        default_interval: 60,
        allowed_intervals: [30, 50, 60, 120, 240],
      },
    ]);
    const { rows: users } = await pg.query('select id, team_id from identity.users order by id');
    expect(users).toEqual([
      ...admins.map((id) => ({ id, team_id: null })),
      ...workers.map((id) => ({ id, team_id: teams[0].id })),
      { id: boss, team_id: null },
    ]);
    // And from now on a worker cannot be without a team.
    await expect(
      pg.query(`insert into identity.users (username, password_hash, name, role) values ('loose', 'x', 'Loose', 'worker')`),
    ).rejects.toThrow(/users_worker_team/);
  });
});
