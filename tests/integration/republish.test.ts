/**
 * `npm run lws -- republish`: the operator's way back from a bus that lost events it had
 * acknowledged. A shift start escalation never received (its copy as if the event never came) is
 * republished from shifts' outbox: escalation watches the worker again, consumers that already
 * had the event change nothing, and the command refuses what it cannot do, naming why.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request from 'supertest';
import { RpcClient } from '@lws/messaging';
import { republish } from '@lws/stack';
import { eventually } from '@lws/testing';
import { nextMobile } from './support/accounts';
import { streamEvents } from './support/stream-events';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const run = promisify(execFile);
const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('republishing a time range of a service outbox (real PostgreSQL and NATS)', () => {
  let t: TestStack;
  let rpc: RpcClient;
  let db: Client;

  beforeAll(async () => {
    t = await startTestStack();
    rpc = await RpcClient.create({ mode: 'nats', natsUrl: t.env.NATS_URL!, subjectPrefix: t.env.SUBJECT_PREFIX, logger: silent });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await rpc?.close();
    await t?.stop();
  });

  /** The check-in escalation watches for: its copy's deadline, when a deadline row (the next step) exists for it. */
  const deadline = async (userId: number) =>
    (
      await db.query(
        `select w.next_check_in_at from escalation.workers w join escalation.deadlines d on d.job_key = 'checkin:' || w.user_id
          where w.user_id = $1 and w.on_shift`,
        [userId],
      )
    ).rows[0]?.next_check_in_at as Date | undefined;

  it('a shift start escalation lost is applied again; consumers that had it change nothing', async () => {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    const { body } = await agent
      .post('/api/users')
      .set(XHR)
      .send({
        username: `rep${Math.random().toString(36).slice(2, 8)}`,
        password: 'Secret1pass',
        name: 'Republish Worker',
        phone: nextMobile(),
        role: 'worker',
      })
      .expect(201);
    const userId = body.user.id as number;
    await agent.post('/api/location-options').set(XHR).send({ name: 'Republish Depot' }).expect(201);
    const since = new Date(Date.now() - 1000);
    const started = await eventually(
      async () => (await rpc.send('shifts.shift.start.v1', { userId, location: 'Republish Depot' })).worker,
      20_000,
      200,
    );
    const due = await eventually(() => deadline(userId), 20_000, 100);
    expect(due.toISOString()).toBe(new Date(started.nextCheckInAt!).toISOString());
    const auditEntries = async () =>
      Number((await db.query(`select count(*) from audit.entries where user_id = $1 and type = 'start_shift'`, [userId])).rows[0].count);
    await eventually(async () => (await auditEntries()) === 1, 20_000, 100);

    // Escalation as if the event had never reached it: no deadline, not on shift, never processed.
    const [{ id: eventId }] = (
      await db.query(
        `select payload->>'id' as id from shifts.outbox where subject = 'shifts.shift.started.v1' and (payload->'data'->>'userId')::int = $1`,
        [userId],
      )
    ).rows;
    await db.query('begin');
    await db.query('delete from escalation.deadlines where user_id = $1', [userId]);
    await db.query(
      'update escalation.workers set on_shift = false, shift_id = null, next_check_in_at = null, deadline_as_of = null, shifts_version = 0 where user_id = $1',
      [userId],
    );
    await db.query('delete from escalation.processed_events where event_id = $1', [eventId]);
    await db.query('commit');
    expect(await deadline(userId)).toBeUndefined();

    const { published } = await republish({ service: 'shifts', since }, t.env);
    expect(published).toBeGreaterThanOrEqual(1);

    // Escalation watches the worker again, at the deadline shifts holds.
    expect((await eventually(() => deadline(userId), 20_000, 100)).toISOString()).toBe(new Date(started.nextCheckInAt!).toISOString());
    // The stream carries the event twice under the same id; audit, which had it, wrote no second entry.
    const copies = (await streamEvents(t, 'shifts.shift.started.v1')).filter((e) => e.id === eventId);
    expect(copies).toHaveLength(2);
    expect(copies[1]).toEqual(copies[0]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await auditEntries()).toBe(1);
  }, 90_000);

  it('refuses what it cannot do, naming the fix, with exit code 2', async () => {
    await expect(republish({ service: 'nope', since: '2026-11-24T10:00Z' }, t.env)).rejects.toThrow(
      /--service must be one of identity, locations/,
    );
    await expect(republish({ service: 'shifts', since: 'yesterday-ish' }, t.env)).rejects.toThrow('--since must be a date and time');
    await expect(republish({ service: 'shifts', since: '2026-11-24T10:00Z', until: '2026-11-24T09:00Z' }, t.env)).rejects.toThrow(
      '--until must be after --since',
    );
    await expect(republish({ service: 'shifts', since: '2026-11-24T10:00Z' }, { DATA_DIR: '.data' })).rejects.toThrow(
      'republish needs DATABASE_URL and NATS_URL',
    );

    const cli = join(__dirname, '..', '..', 'tools', 'stack', 'dist', 'lws.js');
    const failed = await run(process.execPath, [cli, 'republish', '--service', 'shifts', '--since', 'soon'], {
      env: { PATH: process.env.PATH, ...t.env },
    }).catch((e) => e);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('--since must be a date and time');
    const ok = await run(
      process.execPath,
      [cli, 'republish', '--service', 'locations', '--since', new Date(Date.now() + 3600_000).toISOString()],
      {
        env: { PATH: process.env.PATH, ...t.env },
      },
    );
    expect(ok.stdout).toBe('Republished 0 events of locations.\n');
  }, 60_000);
});
