import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { Scheduler } from '@lws/escalation';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';

const EVENT_WAIT_MS = 30_000;
const MINUTE = 60_000;

interface Alarm {
  id: string;
  userId: number;
  kind: string;
  state: string;
  lateCheckInAt: string | null;
  history: string[];
}

/**
 * Whose an alarm is, and what it records, with two teams: an alarm belongs to the team its worker
 * was in when it opened (that team's monitors were told of it), so a worker who moves leaves their
 * older alarms with the old team in every list, answer and report; an admin's "process missed
 * check-ins" runs only their own teams' due check-ins; and a check-in that reaches the server after
 * its alarm opened stays a late one, whatever time the worker's device says it was made.
 */
describe("alarms: an alarm stays its team's, and its record is the server's", () => {
  let t: TestStack;
  let db: Client;
  let superadmin: Account;
  let adminN: Account;
  let adminS: Account;
  let north: { id: number };
  let south: { id: number };
  const pins = new Map<number, string>();
  let nextPin = 4100;

  async function account(role: 'worker' | 'admin', prefix: string): Promise<Account> {
    const username = `${prefix}${Math.random().toString(36).slice(2, 8)}`;
    const pin = String(nextPin++);
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name: `${prefix} person`, phone: nextMobile(), role, pinCode: pin })
      .expect(201);
    pins.set(res.body.user.id, pin);
    return { id: res.body.user.id, username, password: 'Secret1pass', role, agent: await signIn(t, username, 'Secret1pass') };
  }

  /** A worker of the team, on shift at its site, once escalation knows their team (an alarm takes it from there). */
  async function worker(teamId: number, site: string, prefix: string): Promise<Account> {
    const w = await account('worker', prefix);
    await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId }).expect(200);
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: site })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    await inEscalationTeam(w, teamId);
    return w;
  }

  async function inEscalationTeam(w: Account, teamId: number): Promise<void> {
    await eventually(
      async () => (await db.query('select team_id from escalation.workers where user_id = $1', [w.id])).rows[0]?.team_id === teamId,
      EVENT_WAIT_MS,
      100,
    );
  }

  const alarms = async (a: Account, query = '?open=false') => (await a.agent.get(`/api/alarms${query}`).expect(200)).body as Alarm[];
  const alarmOf = (w: Account) =>
    eventually(
      async () => (await alarms(superadmin)).find((a) => a.userId === w.id && a.state !== 'resolved'),
      EVENT_WAIT_MS,
      200,
    ) as Promise<Alarm>;
  const missedNow = (w: Account) => superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
  const processed = async (a: Account) =>
    ((await a.agent.post('/api/process-missed-check-ins').set(XHR).expect(200)).body.results as { userId: number }[]).map((r) => r.userId);
  /** Escalation holds the worker's check-in deadline, due now and not yet fired. */
  const dueUnfired = async (w: Account) =>
    (await db.query(`select 1 from escalation.deadlines where job_key = $1 and step = 'missed' and due_at <= now()`, [`checkin:${w.id}`]))
      .rowCount === 1;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    superadmin = await superadminOf(t);
    adminN = await account('admin', 'onorth');
    adminS = await account('admin', 'osouth');
    const site = async (name: string) =>
      (await superadmin.agent.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id as number;
    const [northSite, southSite] = [await site('North Yard'), await site('South Yard')];
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
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await t?.stop();
  });

  it("process-missed-check-ins runs an admin's own teams' due check-ins only; another team's stay due for their own monitors", async () => {
    const wN = await worker(north.id, 'North Yard', 'pnorth');
    const wS = await worker(south.id, 'South Yard', 'psouth');
    const escalation = t.stack.services.find((s) => s.name === 'escalation')!;
    // Escalation's own timers would fire both within a tick: held, only the calls below run them.
    const scheduler = escalation.app.get(Scheduler, { strict: false });
    await scheduler.stop();
    try {
      await missedNow(wN);
      await missedNow(wS);
      await eventually(async () => (await dueUnfired(wN)) && (await dueUnfired(wS)), EVENT_WAIT_MS, 100);

      const byNorth = await processed(adminN);
      expect(byNorth).toContain(wN.id);
      expect(byNorth).not.toContain(wS.id);
      expect(await dueUnfired(wS)).toBe(true);
      expect((await alarms(superadmin)).some((a) => a.userId === wS.id)).toBe(false);

      const bySouth = await processed(adminS);
      expect(bySouth).toEqual([wS.id]);
      expect(await dueUnfired(wS)).toBe(false);
    } finally {
      scheduler.start();
    }
    await alarmOf(wN);
    await alarmOf(wS);
  });

  it("a worker who moves team leaves their older alarms with the old team: lists, answers and reports follow the alarm's team", async () => {
    const mover = await worker(south.id, 'South Yard', 'mover');
    await missedNow(mover);
    const old = await alarmOf(mover);

    await superadmin.agent.patch(`/api/users/${mover.id}`).set(XHR).send({ teamId: north.id }).expect(200);
    // North's admin now sees the worker, not the alarm South's monitors were told of.
    expect((await adminN.agent.get(`/api/users/${mover.id}/with-relations`).expect(200)).body.id).toBe(mover.id);
    expect((await alarms(adminN)).map((a) => a.id)).not.toContain(old.id);
    expect((await alarms(adminS)).map((a) => a.id)).toContain(old.id);
    expect((await adminN.agent.post(`/api/alarms/${old.id}/acknowledge`).set(XHR).expect(404)).body.message).toBe('Alarm not found');
    await adminS.agent.post(`/api/alarms/${old.id}/acknowledge`).set(XHR).expect(200);

    const report = async (a: Account) =>
      (await a.agent.get('/api/reports/alarms').expect(200)).body as { total: { count: number }; byTeam: { team: string }[] };
    const northReport = await report(adminN);
    expect(northReport.byTeam.map((r) => r.team)).toEqual(['North']);
    const csv = (await adminN.agent.get('/api/reports/alarms.csv').expect(200)).text;
    expect(csv).toContain('North');
    expect(csv).not.toContain('South');
    const southReport = await report(adminS);
    expect(southReport.byTeam.map((r) => r.team)).toEqual(['South']);
    const southCount = southReport.total.count;
    expect(southCount).toBeGreaterThanOrEqual(2);
    expect((await report(superadmin)).total.count).toBe(northReport.total.count + southCount);

    // Alarms from the move on are North's.
    await inEscalationTeam(mover, north.id);
    await superadmin.agent
      .post(`/api/alarms/${old.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Moved teams' })
      .expect(200);
    await missedNow(mover);
    const next = await alarmOf(mover);
    expect((await alarms(adminN)).map((a) => a.id)).toContain(next.id);
    expect((await alarms(adminS)).map((a) => a.id)).not.toContain(next.id);
    expect((await report(adminS)).total.count).toBe(southCount);
  });

  it('a check-in kept offline that reaches the server after its alarm opened is recorded as late, at its arrival, the device time shown as its claim', async () => {
    const w = await worker(north.id, 'North Yard', 'offline');
    const deadline = Date.parse((await missedNow(w)).body.nextCheckInTime);
    const alarm = await alarmOf(w);
    expect(alarm.kind).toBe('missed_check_in');

    const madeAt = new Date(deadline - 30_000).toISOString();
    const sentAt = Date.now();
    await w.agent
      .post('/api/check-ins')
      .set(XHR)
      .send({ userId: w.id, location: 'North Yard', pin: pins.get(w.id), madeAt })
      .expect(201);
    const late = await eventually(
      async () => (await alarms(adminN)).find((a) => a.id === alarm.id && a.lateCheckInAt !== null),
      EVENT_WAIT_MS,
      200,
    );
    expect(late!.state).toBe('open');
    expect(Date.parse(late!.lateCheckInAt!)).toBeGreaterThanOrEqual(sentAt - 1000);
    expect(Date.parse(late!.lateCheckInAt!)).toBeLessThan(sentAt + MINUTE);
    expect(late!.history.at(-1)).toMatch(
      /^Late check-in at \d\d:\d\d \(the worker's device says it was made at \d\d:\d\d\): no further steps$/,
    );
    expect(late!.history.join('\n')).not.toContain('before the deadline');
  });
});
