import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, superadminOf, type Account } from './support/accounts';
import { openStream, sessionCookie, type SseStream } from './support/sse-client';

/**
 * Scoped access: with two teams, each admin sees and answers only their own team's
 * workers on every list (dashboards, alarms, activity, reports, kiosks) and on the live stream;
 * another team's alarm is a 404 and stays as it was. The superadmin sees everyone.
 */
describe('teams: an admin sees only the workers of the teams they monitor', () => {
  let t: TestStack;
  let superadmin: Account;
  let adminN: Account;
  let adminS: Account;
  let workerN: Account;
  let workerS: Account;
  let workerS2: Account;
  let north: { id: number };
  let south: { id: number };
  const streams: SseStream[] = [];

  const ids = (rows: { id: number }[]) => rows.map((r) => r.id);
  const alarmUsers = async (a: Account, query = '') =>
    ((await a.agent.get(`/api/alarms${query}`).expect(200)).body as { userId: number }[]).map((x) => x.userId);

  async function inTeam(teamId: number, prefix: string): Promise<Account> {
    const w = await createAccount(t, superadmin.agent, 'worker', prefix);
    await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId }).expect(200);
    return w;
  }

  async function onShift(w: Account, location: string): Promise<void> {
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location })).status === 200,
      20_000,
      100,
    );
  }

  async function stream(a: Account): Promise<SseStream> {
    const s = await openStream(t.url, { cookie: await sessionCookie(t.url, a.username, a.password) });
    streams.push(s);
    expect(s.status).toBe(200);
    await s.waitFor((e) => e.event === 'ready');
    return s;
  }

  /** The workers a stream has heard of, by their worker frames. */
  const heard = (s: SseStream) => new Set(s.of<{ userId: number }>('worker').map((w) => w.userId));

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    adminN = await createAccount(t, superadmin.agent, 'admin', 'snorth');
    adminS = await createAccount(t, superadmin.agent, 'admin', 'ssouth');
    const loc = async (name: string) =>
      (await superadmin.agent.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id as number;
    const [northSite, southSite] = [await loc('North Site'), await loc('South Site')];
    // The single-team start: both admins monitor "Default". The superadmin splits it in two.
    const [defaultTeam] = (await superadmin.agent.get('/api/teams').expect(200)).body as { id: number }[];
    await superadmin.agent.patch(`/api/teams/${defaultTeam.id}`).set(XHR).send({ monitors: [] }).expect(200);
    north = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'North', locationIds: [northSite], monitors: [{ userId: adminN.id }] })
        .expect(201)
    ).body;
    south = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'South', locationIds: [southSite], monitors: [{ userId: adminS.id }] })
        .expect(201)
    ).body;
    workerN = await inTeam(north.id, 'wnorth');
    workerS = await inTeam(south.id, 'wsouth');
    workerS2 = await inTeam(south.id, 'wsouthb');
    await onShift(workerN, 'North Site');
    await onShift(workerS, 'South Site');
    await onShift(workerS2, 'South Site');
  }, 120_000);

  afterEach(() => {
    for (const s of streams.splice(0)) s.close();
  });
  afterAll(() => t?.stop());

  it('the dashboards list each admin only their own team on shift, due and missed; the superadmin everyone', async () => {
    const active = async (a: Account) => ids((await a.agent.get('/api/workers/active').expect(200)).body);
    expect(await active(adminN)).toEqual([workerN.id]);
    expect((await active(adminS)).sort()).toEqual([workerS.id, workerS2.id].sort());
    expect(await active(superadmin)).toEqual(expect.arrayContaining([workerN.id, workerS.id, workerS2.id]));

    await superadmin.agent.post(`/api/simulate-check-in-due/${workerN.id}`).set(XHR).expect(200);
    await superadmin.agent.post(`/api/simulate-check-in-due/${workerS.id}`).set(XHR).expect(200);
    const missed = async (a: Account) => ids((await a.agent.get('/api/workers/missed').expect(200)).body);
    await eventually(async () => (await missed(superadmin)).includes(workerS.id), 10_000, 100);
    expect(await missed(adminN)).toEqual([workerN.id]);
    expect(await missed(adminS)).toEqual([workerS.id]);
    const board = (await adminN.agent.get('/api/dashboard-data').expect(200)).body;
    expect([ids(board.active), ids(board.due), ids(board.missed)]).toEqual([[workerN.id], [], [workerN.id]]);
    expect(ids((await adminS.agent.get('/api/dashboard-data').expect(200)).body.missed)).toEqual([workerS.id]);
  });

  it("a worker's own profile names their team and its monitors", async () => {
    const me = (await workerN.agent.get(`/api/users/${workerN.id}/with-relations`).expect(200)).body;
    expect(me.team).toEqual({
      id: north.id,
      name: 'North',
      monitors: ['snorth person'],
      checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 50, 60, 120, 240] },
      visitTypes: [],
    });
    expect((await adminN.agent.get(`/api/users/${adminN.id}/with-relations`).expect(200)).body.team).toBeNull();
  });

  it("alarms: each admin lists and answers their own team's; another team's alarm is a 404 and stays open", async () => {
    await eventually(
      async () => (await alarmUsers(superadmin)).filter((u) => u === workerN.id || u === workerS.id).length === 2,
      20_000,
      200,
    );
    expect(await alarmUsers(adminN)).toEqual([workerN.id]);
    expect(await alarmUsers(adminS)).toEqual([workerS.id]);
    const all = (await superadmin.agent.get('/api/alarms').expect(200)).body as { id: string; userId: number; state: string }[];
    const alarmN = all.find((a) => a.userId === workerN.id)!;
    const alarmS = all.find((a) => a.userId === workerS.id)!;

    const refused = await adminN.agent.post(`/api/alarms/${alarmS.id}/acknowledge`).set(XHR).expect(404);
    expect(refused.body.message).toBe('Alarm not found');
    await adminN.agent
      .post(`/api/alarms/${alarmS.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Not mine' })
      .expect(404);
    const untouched = ((await superadmin.agent.get('/api/alarms').expect(200)).body as { id: string }[]).find((a) => a.id === alarmS.id);
    expect(untouched).toMatchObject({ id: alarmS.id, state: 'open', acknowledgedBy: null, resolvedAt: null });

    await adminN.agent.post(`/api/alarms/${alarmN.id}/acknowledge`).set(XHR).expect(200);
    await adminS.agent
      .post(`/api/alarms/${alarmS.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'genuine', severity: 'minor', note: 'Called back' })
      .expect(200);
  });

  it("the activity log and the monthly report hold only the admin's teams", async () => {
    const users = async (a: Account) =>
      new Set(((await a.agent.get('/api/activity-logs?limit=200').expect(200)).body as { userId?: number }[]).map((e) => e.userId));
    await eventually(async () => (await users(superadmin)).has(workerS.id), 10_000, 200);
    const seenByN = await users(adminN);
    expect(seenByN.has(workerN.id)).toBe(true);
    expect([...seenByN].filter((u) => u !== workerN.id && u !== adminN.id)).toEqual([]);
    const seenByS = await users(adminS);
    expect(seenByS.has(workerS.id)).toBe(true);
    expect(seenByS.has(workerN.id)).toBe(false);
    // Asking for another team's worker by id finds nothing either.
    expect((await adminN.agent.get(`/api/activity-logs?userId=${workerS.id}`).expect(200)).body).toEqual([]);

    const total = async (a: Account) => (await a.agent.get('/api/reports/alarms').expect(200)).body.total.count as number;
    expect(await total(adminN)).toBe(1);
    expect(await total(adminS)).toBe(1);
    expect(await total(superadmin)).toBe(2);
    // Per team: each team's figures, the report filtered to one team, and the same in the CSV.
    const byTeam = async (a: Account, query = '') =>
      ((await a.agent.get(`/api/reports/alarms${query}`).expect(200)).body.byTeam as { team: string; total: { count: number } }[]).map(
        (t) => [t.team, t.total.count],
      );
    expect(await byTeam(superadmin)).toEqual([
      ['North', 1],
      ['South', 1],
    ]);
    expect(await byTeam(adminN)).toEqual([['North', 1]]);
    expect(await byTeam(superadmin, `?teamId=${south.id}`)).toEqual([['South', 1]]);
    expect((await superadmin.agent.get(`/api/reports/alarms?teamId=${south.id}`).expect(200)).body.total.count).toBe(1);
    expect((await adminN.agent.get(`/api/reports/alarms?teamId=${south.id}`).expect(404)).body).toEqual({
      message: 'Team not found',
      field: 'teamId',
    });
    expect((await adminN.agent.get('/api/reports/alarms?teamId=abc').expect(400)).body.field).toBe('teamId');
    const csv = (await adminN.agent.get('/api/reports/alarms.csv').expect(200)).text.trim().split('\r\n');
    expect(csv[3]).toMatch(/^\d{4}-\d{2},all,1,.*,$/);
    expect(csv.slice(4).map((l) => l.split(',').slice(1, 3).concat(l.split(',').pop()!))).toEqual([
      ['missed_check_in', '1', 'North'],
      ['emergency', '0', 'North'],
      ['all', '1', 'North'],
    ]);
  });

  it("kiosks: an admin enrols at their teams' locations only, and lists and revokes only those", async () => {
    const refused = await adminN.agent.post('/api/kiosks').set(XHR).send({ name: 'South desk', location: 'South Site' }).expect(400);
    expect(refused.body).toEqual({ message: 'Choose a location of one of your teams', field: 'location' });
    const northKiosk = (await adminN.agent.post('/api/kiosks').set(XHR).send({ name: 'North desk', location: 'north site' }).expect(201))
      .body;
    const southKiosk = (await adminS.agent.post('/api/kiosks').set(XHR).send({ name: 'South desk', location: 'South Site' }).expect(201))
      .body;
    expect(ids((await adminN.agent.get('/api/kiosks').expect(200)).body)).toEqual([northKiosk.id]);
    expect(ids((await adminS.agent.get('/api/kiosks').expect(200)).body)).toEqual([southKiosk.id]);
    expect(ids((await superadmin.agent.get('/api/kiosks').expect(200)).body).sort()).toEqual([northKiosk.id, southKiosk.id].sort());
    await adminN.agent.delete(`/api/kiosks/${southKiosk.id}`).set(XHR).expect(404);
    expect(
      (await superadmin.agent.get('/api/kiosks').expect(200)).body.find((k: { id: number }) => k.id === southKiosk.id).revokedAt ?? null,
    ).toBeNull();
    await adminN.agent.delete(`/api/kiosks/${northKiosk.id}`).set(XHR).expect(200);
  });

  it("the live stream carries an admin's teams only, and follows a worker who moves and a team that gains a monitor", async () => {
    const [n, s, all] = [await stream(adminN), await stream(adminS), await stream(superadmin)];
    const touch = (w: Account) => superadmin.agent.post(`/api/reset-check-in-timer/${w.id}`).set(XHR).expect(200);
    await touch(workerS);
    await touch(workerN);
    await n.waitFor((e) => e.event === 'worker' && JSON.parse(e.data).userId === workerN.id, 10_000);
    await s.waitFor((e) => e.event === 'worker' && JSON.parse(e.data).userId === workerS.id, 10_000);
    await all.waitFor((e) => e.event === 'worker' && JSON.parse(e.data).userId === workerN.id, 10_000);
    expect(heard(all)).toEqual(new Set([workerN.id, workerS.id]));
    // The South event went out first: North's admin would have it by now.
    expect(heard(n)).toEqual(new Set([workerN.id]));
    expect(heard(s)).toEqual(new Set([workerS.id]));

    // South's worker moves to North: North's admin hears of the move and of them from then on.
    await superadmin.agent.patch(`/api/users/${workerS.id}`).set(XHR).send({ teamId: north.id }).expect(200);
    await n.waitFor((e) => e.event === 'account' && JSON.parse(e.data).userId === workerS.id, 10_000);
    await touch(workerS);
    await n.waitFor((e) => e.event === 'worker' && JSON.parse(e.data).userId === workerS.id, 10_000);
    // The alarm they had in South stays South's, whose monitors were told of it.
    expect(await alarmUsers(adminN, '?open=false')).toEqual([workerN.id]);
    expect(await alarmUsers(adminS, '?open=false')).toContain(workerS.id);

    // North's admin becomes South's monitor too: South's other worker reaches their open stream.
    await superadmin.agent
      .patch(`/api/teams/${south.id}`)
      .set(XHR)
      .send({ monitors: [{ userId: adminS.id }, { userId: adminN.id }] })
      .expect(200);
    await eventually(
      async () => {
        await touch(workerS2);
        await new Promise((r) => setTimeout(r, 300));
        return heard(n).has(workerS2.id);
      },
      15_000,
      0,
    );
    expect(ids((await adminN.agent.get('/api/workers/active').expect(200)).body).sort()).toEqual(
      [workerN.id, workerS.id, workerS2.id].sort(),
    );
  });

  it('an admin of one team adds a worker to it without naming it; an admin of no team is told to ask for one', async () => {
    const newWorker = () => ({
      username: `snew${Math.random().toString(36).slice(2, 9)}`,
      password: 'Secret1pass',
      name: 'New Starter',
      phone: nextMobile(),
    });
    const res = await adminN.agent.post('/api/users').set(XHR).send(newWorker()).expect(201);
    expect(res.body.user.teamId).toBe(north.id);
    const lone = await createAccount(t, superadmin.agent, 'admin', 'slone');
    const refused = await lone.agent.post('/api/users').set(XHR).send(newWorker()).expect(400);
    expect(refused.body).toEqual({ message: 'You monitor no team yet: ask the superadmin to add you to one', field: 'teamId' });
    // And sees nobody meanwhile.
    expect((await lone.agent.get('/api/workers/active').expect(200)).body).toEqual([]);
    expect((await lone.agent.get('/api/alarms?open=false').expect(200)).body).toEqual([]);
    expect((await lone.agent.get('/api/reports/alarms').expect(200)).body.total.count).toBe(0);
  });
});
