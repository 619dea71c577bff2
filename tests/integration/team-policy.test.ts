import request from 'supertest';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { RpcClient } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { openStream, sessionCookie } from './support/sse-client';

/**
 * A team's check-in policy holds on every path: a worker cannot choose an interval their team does
 * not allow, a worker without one follows the team's default, and a policy change or a move to
 * another team brings the team's workers within it from their next deadline on.
 */

const EVENT_WAIT_MS = 30_000;
const MINUTE = 60_000;
const ALL = [30, 50, 60, 120, 240];

interface Worker extends Account {
  pin: string;
}

describe("a team's check-in policy (real PostgreSQL, NATS, Redis; test clock)", () => {
  let t: TestStack;
  let rpc: RpcClient;
  let superadmin: Account;
  let depot: string;
  let defaultTeamId: number;
  let nextPin = 2000;

  beforeAll(async () => {
    t = await startTestStack({ env: { LWS_TEST_CLOCK: '1', LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    rpc = await RpcClient.create({ mode: 'nats', natsUrl: t.env.NATS_URL!, subjectPrefix: t.env.SUBJECT_PREFIX });
    superadmin = await superadminOf(t);
    defaultTeamId = ((await superadmin.agent.get('/api/teams').expect(200)).body as { id: number; name: string }[]).find(
      (x) => x.name === 'Default',
    )!.id;
    depot = `Depot ${randomUUID().slice(0, 8)}`;
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: depot, isActive: true }).expect(201);
    // Shifts hears of the location through its events: a shift can start there once it has.
    const probe = await newWorker();
    await eventually(async () => (await startShift(probe)).status === 200, EVENT_WAIT_MS, 100);
    await endShift(probe).expect(200);
  }, 120_000);

  afterAll(async () => {
    await rpc?.close();
    await t?.stop();
  });

  async function newTeam(name: string, checkInPolicy: { defaultInterval: number; allowedIntervals: number[] }): Promise<number> {
    return (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: `${name} ${randomUUID().slice(0, 6)}`, checkInPolicy })
        .expect(201)
    ).body.id;
  }

  async function newWorker(teamId?: number): Promise<Worker> {
    const username = `pw${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    const pin = String(nextPin++);
    const res = await superadmin.agent
      .post('/api/users')
      .set(XHR)
      .send({
        username,
        password,
        name: `Worker ${username}`,
        phone: nextMobile(),
        role: 'worker',
        pinCode: pin,
        ...(teamId ? { teamId } : {}),
      })
      .expect(201);
    return { id: res.body.user.id, username, password, role: 'worker', agent: await signIn(t, username, password), pin };
  }

  const startShift = (w: Account) => w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot });
  const endShift = (w: Worker) => w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.pin });
  const checkIn = (w: Worker) => w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: depot, pin: w.pin });
  const profile = async (w: Account) => (await w.agent.get(`/api/users/${w.id}/with-relations`).expect(200)).body;
  const saveSettings = (w: Account, checkInInterval: unknown) =>
    w.agent.patch(`/api/users/${w.id}/settings`).set(XHR).send({ primaryContact: '+447911123456', checkInInterval });
  const minutesBetween = (later: string, earlier: string) => (Date.parse(later) - Date.parse(earlier)) / MINUTE;
  /** The interval shifts schedules this worker's next deadline with, once it has heard of a change. */
  const shiftsInterval = async (w: Account) => (await rpc.send('shifts.worker.states.v1', { userIds: [w.id] })).workers[0].checkInInterval;
  const advance = (minutes: number) => superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: minutes }).expect(200);

  it('refuses an interval the team does not allow, naming checkInInterval and the allowed ones, and writes nothing', async () => {
    const teamId = await newTeam('Night Shift', { defaultInterval: 30, allowedIntervals: [30] });
    const teamName = (await superadmin.agent.get(`/api/teams/${teamId}`).expect(200)).body.name;
    const w = await newWorker(teamId);
    const refusal = { message: `Check-in interval must be 30 minutes for team ${teamName}`, field: 'checkInInterval' };

    expect((await saveSettings(w, 240).expect(400)).body).toEqual(refusal);
    expect(
      (
        await w.agent
          .post('/api/settings')
          .set(XHR)
          .send({ userId: w.id, primaryContact: '+447911123456', checkInInterval: '240' })
          .expect(400)
      ).body,
    ).toEqual(refusal);
    // The superadmin acting for the worker is held to the same rule.
    expect((await saveSettings({ ...w, agent: superadmin.agent }, 60).expect(400)).body).toEqual(refusal);
    expect((await profile(w)).settings).toBeNull();

    expect((await saveSettings(w, 30).expect(200)).body).toMatchObject({ userId: w.id, checkInInterval: 30 });
    // Sent without an interval, the settings keep the one that applies.
    expect(
      (await w.agent.post('/api/settings').set(XHR).send({ userId: w.id, primaryContact: '+447911654321' }).expect(200)).body
        .checkInInterval,
    ).toBe(30);
  });

  it("gives a worker without their own interval the team's default: the first deadline is 30 minutes after the shift starts", async () => {
    const teamId = await newTeam('Lone Night', { defaultInterval: 30, allowedIntervals: [30, 60] });
    const w = await newWorker(teamId);
    const read = await profile(w);
    expect([read.settings, read.checkInInterval, read.team.checkInPolicy]).toEqual([
      null,
      30,
      { defaultInterval: 30, allowedIntervals: [30, 60] },
    ]);
    await eventually(async () => (await shiftsInterval(w)) === 30, EVENT_WAIT_MS);
    const started = (await startShift(w).expect(200)).body;
    expect(minutesBetween(started.nextCheckInTime, started.shiftStartTime)).toBe(30);
    const checked = (await checkIn(w).expect(201)).body;
    expect(minutesBetween(checked.nextCheckInTime, checked.timestamp)).toBe(30);
  });

  it('brings workers within a changed policy from their next deadline on, and tells each one whose interval changed', async () => {
    const teamId = await newTeam('Flex', { defaultInterval: 60, allowedIntervals: ALL });
    const [long, keeps, none] = [await newWorker(teamId), await newWorker(teamId), await newWorker(teamId)];
    await saveSettings(long, 240).expect(200);
    await saveSettings(keeps, 30).expect(200);
    await eventually(async () => (await shiftsInterval(long)) === 240, EVENT_WAIT_MS);
    const firstDeadline = (await startShift(long).expect(200)).body.nextCheckInTime;
    const noneStarted = (await startShift(none).expect(200)).body;
    expect(minutesBetween(noneStarted.nextCheckInTime, noneStarted.shiftStartTime)).toBe(60);
    const stream = await openStream(t.url, { cookie: await sessionCookie(t.url, long.username, long.password) });

    try {
      const changed = await superadmin.agent
        .patch(`/api/teams/${teamId}`)
        .set(XHR)
        .send({ checkInPolicy: { defaultInterval: 30, allowedIntervals: [30, 120] } })
        .expect(200);
      expect(changed.body.checkInPolicy).toEqual({ defaultInterval: 30, allowedIntervals: [30, 120] });

      // 240 is no longer allowed: the nearest allowed, 120. 30 still is. No own interval: the new default.
      expect([(await profile(long)).settings.checkInInterval, (await profile(long)).checkInInterval]).toEqual([120, 120]);
      expect((await profile(keeps)).settings.checkInInterval).toBe(30);
      expect([(await profile(none)).settings, (await profile(none)).checkInInterval]).toEqual([null, 30]);
      // The worker's screen hears that their account changed, and reads the new interval.
      await stream.waitFor((e) => e.event === 'account' && (JSON.parse(e.data) as { userId: number }).userId === long.id, EVENT_WAIT_MS);

      await eventually(async () => (await shiftsInterval(long)) === 120 && (await shiftsInterval(none)) === 30, EVENT_WAIT_MS);
      // The deadline already set stands; the one after it uses the new interval.
      expect((await profile(long)).nextCheckInTime).toBe(firstDeadline);
      await advance(5);
      const next = (await checkIn(long).expect(201)).body;
      expect(minutesBetween(next.nextCheckInTime, next.timestamp)).toBe(120);
      const noneNext = (await checkIn(none).expect(201)).body;
      expect(minutesBetween(noneNext.nextCheckInTime, noneNext.timestamp)).toBe(30);
      await eventually(async () => (await shiftsInterval(keeps)) === 30, EVENT_WAIT_MS);
    } finally {
      stream.close();
    }
  });

  it("moving a worker to another team applies that team's policy; moving back keeps an interval still allowed", async () => {
    const strict = await newTeam('Strict', { defaultInterval: 30, allowedIntervals: [30] });
    const [own, none] = [await newWorker(), await newWorker()];
    await saveSettings(own, 240).expect(200);
    expect((await profile(none)).checkInInterval).toBe(60);

    for (const w of [own, none])
      await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: strict }).expect(200, { teamId: strict });
    expect((await profile(own)).settings.checkInInterval).toBe(30);
    expect((await profile(none)).checkInInterval).toBe(30);
    await eventually(async () => (await shiftsInterval(own)) === 30 && (await shiftsInterval(none)) === 30, EVENT_WAIT_MS);
    const started = (await startShift(own).expect(200)).body;
    expect(minutesBetween(started.nextCheckInTime, started.shiftStartTime)).toBe(30);
    await endShift(own).expect(200);

    for (const w of [own, none]) await superadmin.agent.patch(`/api/users/${w.id}`).set(XHR).send({ teamId: defaultTeamId }).expect(200);
    expect((await profile(own)).settings.checkInInterval).toBe(30);
    expect((await profile(none)).checkInInterval).toBe(60);
    await eventually(async () => (await shiftsInterval(none)) === 60, EVENT_WAIT_MS);
  });

  it("the import applies the team's policy to the workers it creates and moves", async () => {
    const teamId = await newTeam('Imported', { defaultInterval: 30, allowedIntervals: [30] });
    const teamName = (await superadmin.agent.get(`/api/teams/${teamId}`).expect(200)).body.name;
    const mover = await newWorker();
    await saveSettings(mover, 240).expect(200);
    const fresh = `imp${Math.random().toString(36).slice(2, 8)}`;
    const csv = [
      'username,name,phone,role,team,pin',
      `${fresh},Fresh Import,${nextMobile()},worker,${teamName},4321`,
      `${mover.username},${`Worker ${mover.username}`},${nextMobile()},worker,${teamName},`,
    ].join('\n');
    const res = await superadmin.agent.post('/api/users/import').set(XHR).set('Content-Type', 'text/csv').send(csv).expect(200);
    expect(res.body.summary).toMatchObject({ created: 1, updated: 1, errors: 0 });

    expect((await profile(mover)).settings.checkInInterval).toBe(30);
    const password = (res.body.credentialsCsv as string).split('\r\n')[1].split(',')[2];
    const created: Account = { id: 0, username: fresh, password, role: 'worker', agent: request.agent(t.url) };
    await created.agent.post('/api/auth/login').set(XHR).send({ username: fresh, password }).expect(200);
    created.id = (await created.agent.get('/api/auth/me').expect(200)).body.id;
    expect((await profile(created)).checkInInterval).toBe(30);
    await eventually(async () => (await shiftsInterval(created)) === 30 && (await shiftsInterval(mover)) === 30, EVENT_WAIT_MS);
    const started = (await startShift(created).expect(200)).body;
    expect(minutesBetween(started.nextCheckInTime, started.shiftStartTime)).toBe(30);
  });

  it('after an upgrade, tells the other services once the default of a team they were never told of (workers without an own interval)', async () => {
    const teamId = await newTeam('Upgraded', { defaultInterval: 30, allowedIntervals: [30, 60] });
    const w = await newWorker(teamId);
    await eventually(async () => (await shiftsInterval(w)) === 30, EVENT_WAIT_MS);
    // As a deployment from before the policy was enforced left it: the team's default never told,
    // and shifts scheduling the worker on the 60 minutes every service assumes.
    const db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    try {
      await db.query('update identity.teams set default_heard = null where id = $1', [teamId]);
      await db.query('update shifts.worker_state set check_in_interval = 60 where user_id = $1', [w.id]);
      await t.restart();
      await eventually(async () => (await shiftsInterval(w)) === 30, EVENT_WAIT_MS);
      expect((await db.query('select default_heard from identity.teams where id = $1', [teamId])).rows[0].default_heard).toBe(30);
    } finally {
      await db.end();
    }
    superadmin = { ...superadmin, agent: await signIn(t, superadmin.username, superadmin.password) };
    const again = { ...w, agent: await signIn(t, w.username, w.password) };
    const started = (await eventually(
      async () => {
        const res = await startShift(again);
        return res.status === 200 ? res.body : undefined;
      },
      EVENT_WAIT_MS,
      100,
    )) as { nextCheckInTime: string; shiftStartTime: string };
    expect(minutesBetween(started.nextCheckInTime, started.shiftStartTime)).toBe(30);
  });
});
