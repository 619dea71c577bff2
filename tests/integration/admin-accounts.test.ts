import { Client } from 'pg';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';

interface Creator {
  id: number;
  name: string | null;
  role: string | null;
}

interface Row {
  id: number;
  username: string;
  createdBy?: Creator | null;
}

/**
 * Admin accounts: an admin creates administrators only for the teams they monitor, never for those
 * they only deputise for (a deputy stands in for a monitor and must not mint monitors who outlast
 * them), and the superadmin sees who created each account.
 */
describe('admins created by admins', () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let monitorN: Account;
  let deputyN: Account;
  let monitorS: Account;
  let north: number;
  let south: number;

  const newAdmin = (prefix: string) => ({
    username: `${prefix}${Math.random().toString(36).slice(2, 9)}`,
    password: 'Secret1pass',
    name: `${prefix} person`,
    phone: nextMobile(),
    role: 'admin',
  });
  const monitorsOf = async (teamId: number) =>
    (await superadmin.agent.get(`/api/teams/${teamId}`).expect(200)).body.monitors as { userId: number; deputyUserId?: number }[];
  const accounts = async (who: Account) => (await who.agent.get('/api/worker-accounts').expect(200)).body as Row[];

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    monitorN = await createAccount(t, superadmin.agent, 'admin', 'amon');
    deputyN = await createAccount(t, superadmin.agent, 'admin', 'adep');
    monitorS = await createAccount(t, superadmin.agent, 'admin', 'amos');
    const [defaultTeam] = (await superadmin.agent.get('/api/teams').expect(200)).body as { id: number }[];
    await superadmin.agent.patch(`/api/teams/${defaultTeam.id}`).set(XHR).send({ monitors: [] }).expect(200);
    // North's monitor also stands in for South's; North's deputy monitors nothing.
    north = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'North', monitors: [{ userId: monitorN.id, deputyUserId: deputyN.id }] })
        .expect(201)
    ).body.id;
    south = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'South', monitors: [{ userId: monitorS.id, deputyUserId: monitorN.id }] })
        .expect(201)
    ).body.id;
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it('an admin who only deputises gets a 403 saying so, and no account is made', async () => {
    const body = newAdmin('minted');
    const res = await deputyN.agent.post('/api/users').set(XHR).send(body).expect(403);
    expect(res.body).toEqual({
      message: "You only deputise for your teams: only a team's monitor or the superadmin creates administrators",
    });
    expect((await db.query('select count(*)::int as n from identity.users where username = $1', [body.username])).rows[0].n).toBe(0);
    expect(await monitorsOf(north)).toEqual([{ userId: monitorN.id, deputyUserId: deputyN.id }]);
    // Workers they still add, to the team they stand in for.
    const w = await deputyN.agent
      .post('/api/users')
      .set(XHR)
      .send({ ...newAdmin('dw'), role: 'worker' })
      .expect(201);
    expect(w.body.user.teamId).toBe(north);

    const lone = await createAccount(t, superadmin.agent, 'admin', 'alone');
    expect((await lone.agent.post('/api/users').set(XHR).send(newAdmin('lonely')).expect(403)).body).toEqual({
      message: "You monitor no team: only a team's monitor or the superadmin creates administrators",
    });
  });

  it("a monitor's new admin joins only the teams they monitor, not those they deputise for", async () => {
    const made = await createAccount(t, monitorN.agent, 'admin', 'amade');
    expect(await monitorsOf(north)).toEqual([{ userId: monitorN.id, deputyUserId: deputyN.id }, { userId: made.id }]);
    expect(await monitorsOf(south)).toEqual([{ userId: monitorS.id, deputyUserId: monitorN.id }]);
  });

  it("the superadmin's new administrator monitors the teams chosen, after their present monitors, and sees those teams' workers", async () => {
    const worker = await createAccount(t, monitorS.agent, 'worker', 'wsouth');
    const body = { ...newAdmin('achosen'), monitorTeamIds: [south, north] };
    const { body: created } = await superadmin.agent.post('/api/users').set(XHR).send(body).expect(201);
    expect(await monitorsOf(north)).toEqual(expect.arrayContaining([{ userId: created.user.id }]));
    expect((await monitorsOf(south)).at(-1)).toEqual({ userId: created.user.id });
    expect((await monitorsOf(south))[0]).toEqual({ userId: monitorS.id, deputyUserId: monitorN.id });
    const agent = await signIn(t, body.username, body.password);
    expect(((await agent.get('/api/worker-accounts').expect(200)).body as Row[]).map((r) => r.id)).toContain(worker.id);
  });

  it('refuses teams for a new administrator that do not exist, for a worker, or from an admin, naming the field, and writes nothing', async () => {
    const missing = newAdmin('amissing');
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ ...missing, monitorTeamIds: [north, 999999] })
      .expect(400);
    expect(res.body).toEqual({ message: expect.any(String), field: 'monitorTeamIds.1' });
    expect((await db.query('select count(*)::int as n from identity.users where username = $1', [missing.username])).rows[0].n).toBe(0);
    expect((await monitorsOf(north)).some((m) => m.userId === undefined)).toBe(false);

    const worker = { ...newAdmin('wteams'), role: 'worker', monitorTeamIds: [north] };
    expect((await superadmin.agent.post('/api/users').set(XHR).send(worker).expect(400)).body).toEqual({
      message: 'Only administrators monitor teams',
      field: 'monitorTeamIds',
    });
    expect(
      (
        await monitorN.agent
          .post('/api/users')
          .set(XHR)
          .send({ ...newAdmin('awide'), monitorTeamIds: [south] })
          .expect(400)
      ).body,
    ).toEqual({
      message: 'An administrator you create monitors the teams you monitor',
      field: 'monitorTeamIds',
    });
    expect(
      (
        await superadmin.agent
          .post('/api/users')
          .set(XHR)
          .send({ ...newAdmin('abad'), monitorTeamIds: 'north' })
          .expect(400)
      ).body.field,
    ).toBe('monitorTeamIds');
    expect((await db.query("select count(*)::int as n from identity.users where username ~ '^(wteams|awide|abad)'")).rows[0].n).toBe(0);
  });

  it('the superadmin sees who created each account, admins created by an admin as such; nobody else does', async () => {
    const made = await createAccount(t, monitorN.agent, 'admin', 'aseen');
    const worker = await createAccount(t, monitorN.agent, 'worker', 'wseen');
    const me = (await superadmin.agent.get('/api/auth/me').expect(200)).body as { id: number; name: string };

    const rows = new Map((await accounts(superadmin)).map((r) => [r.id, r]));
    expect(rows.get(made.id)!.createdBy).toEqual({ id: monitorN.id, name: 'amon person', role: 'admin' });
    expect(rows.get(worker.id)!.createdBy).toEqual({ id: monitorN.id, name: 'amon person', role: 'admin' });
    expect(rows.get(monitorN.id)!.createdBy).toEqual({ id: me.id, name: me.name, role: 'superadmin' });
    const relations = (await superadmin.agent.get(`/api/users/${made.id}/with-relations`).expect(200)).body;
    expect(relations.createdBy).toEqual({ id: monitorN.id, name: 'amon person', role: 'admin' });

    // A creator deleted since still shows by id.
    const gone = await createAccount(t, superadmin.agent, 'admin', 'agone');
    await superadmin.agent
      .patch(`/api/teams/${north}`)
      .set(XHR)
      .send({ monitors: [...(await monitorsOf(north)), { userId: gone.id }] })
      .expect(200);
    const orphan = await createAccount(t, gone.agent, 'admin', 'aorphan');
    await superadmin.agent.delete(`/api/users/${gone.id}`).set(XHR).expect(200);
    expect((await accounts(superadmin)).find((r) => r.id === orphan.id)!.createdBy).toEqual({ id: gone.id, name: null, role: null });

    expect((await accounts(monitorN)).some((r) => 'createdBy' in r)).toBe(false);
    expect('createdBy' in (await monitorN.agent.get(`/api/users/${worker.id}/with-relations`).expect(200)).body).toBe(false);
    expect('createdBy' in (await worker.agent.get(`/api/users/${worker.id}/with-relations`).expect(200)).body).toBe(false);
    expect('createdBy' in (await worker.agent.get('/api/auth/me').expect(200)).body).toBe(false);
  });
});
