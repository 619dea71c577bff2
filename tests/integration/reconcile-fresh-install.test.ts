/**
 * A fresh install must not cry wolf: the Default team identity creates and announces at its first
 * start is no lost change, so escalation's reconciliation leaves it to its event instead of
 * "repairing" it with a system alert (which the activity log showed first, and LwsReconcileRepaired
 * paged on). A team whose change really was lost is still repaired. Real PostgreSQL, NATS, Redis.
 */
import { Client } from 'pg';
import request from 'supertest';
import { Reconciler } from '@lws/escalation';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

describe('reconciliation on a fresh install (real PostgreSQL and NATS)', () => {
  let t: TestStack;
  let db: Client;
  let admin: request.Agent;
  let reconciler: Reconciler;

  beforeAll(async () => {
    // The default grace (15 s); rounds after the start-up one run when the test says.
    t = await startTestStack({ env: { ESCALATION_RECONCILE_INTERVAL_SECONDS: '3600' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    admin = request.agent(t.url);
    await admin.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    const escalation = t.stack.services.find((s) => s.name === 'escalation');
    if (!escalation || !('app' in escalation)) throw new Error('no escalation service in the stack');
    reconciler = escalation.app.get(Reconciler, { strict: false });
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  const reconcileAlerts = async () =>
    ((await admin.get('/api/activity-logs?limit=200').expect(200)).body as { details: string }[]).filter((e) =>
      e.details.startsWith('Reconciliation:'),
    );
  const escalationTeams = async () =>
    (await db.query('select id from escalation.teams where deleted_at is null')).rows.map((r) => r.id as number);

  it('leaves the Default team, announced at the first start, to its event: no repair and no alert', async () => {
    const [{ id: defaultId }] = (await db.query("select id from identity.teams where name = 'Default'")).rows as { id: number }[];
    await eventually(async () => (await escalationTeams()).includes(defaultId), 20_000, 100);
    // As if the round ran before the announcement reached escalation (which it did, on some starts).
    await db.query('delete from escalation.teams where id = $1', [defaultId]);
    const round = await reconciler.round('identity');
    expect(round?.repairs.filter((r) => r.kind === 'team_stale')).toEqual([]);
    expect(await reconcileAlerts()).toEqual([]);
  });

  it('still repairs a team whose change was lost, once the grace has passed, and says so', async () => {
    const [{ id: defaultId }] = (await db.query("select id from identity.teams where name = 'Default'")).rows as { id: number }[];
    await db.query("update identity.teams set updated_at = now() - interval '1 hour' where id = $1", [defaultId]);
    const round = await reconciler.round('identity');
    expect(round?.repairs.filter((r) => r.kind === 'team_stale')).toHaveLength(1);
    expect(await escalationTeams()).toContain(defaultId);
    await eventually(
      async () => (await reconcileAlerts()).some((e) => e.details.includes('team Default in escalation differed from identity')),
      20_000,
      200,
    );
  });
});
