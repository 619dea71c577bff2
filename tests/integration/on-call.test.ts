import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, superadminOf, type Account } from './support/accounts';

/**
 * A team's on-call rota on the real stack: the superadmin sets layers and overrides, the team's
 * monitors read who is on call at any hour, away monitors' deputies stand in, and bad input is a
 * 400 naming the field with nothing written.
 */
describe('on-call rota', () => {
  let t: TestStack;
  let superadmin: Account;
  let day: Account;
  let night: Account;
  let deputy: Account;
  let outsider: Account;
  let teamId: number;

  const ALL_WEEK = [1, 2, 3, 4, 5, 6, 7];
  const rota = () => ({
    schedule: {
      timeZone: 'Europe/London',
      layers: [
        {
          name: 'Nights',
          start: '2026-01-05T20:00',
          rotation: 'weekly',
          userIds: [night.id],
          windows: [{ days: ALL_WEEK, from: '20:00', to: '08:00' }],
        },
        { name: 'Days', start: '2026-01-05T08:00', rotation: 'weekly', userIds: [day.id] },
      ],
    },
    coverRequired: 'warn',
  });
  const onCall = async (at: string, who: Account = day) =>
    (await who.agent.get(`/api/teams/${teamId}/on-call`).query({ at }).expect(200)).body;
  const version = async () => ((await superadmin.agent.get(`/api/teams/${teamId}`).expect(200)).body as { version: number }).version;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    day = await createAccount(t, superadmin.agent, 'admin', 'ocday');
    night = await createAccount(t, superadmin.agent, 'admin', 'ocnight');
    deputy = await createAccount(t, superadmin.agent, 'admin', 'ocdeputy');
    outsider = await createAccount(t, superadmin.agent, 'admin', 'ocout');
    teamId = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Night Estates', monitors: [{ userId: day.id, deputyUserId: deputy.id }, { userId: night.id }] })
        .expect(201)
    ).body.id;
  }, 120_000);

  afterAll(async () => {
    await t?.stop();
  });

  it('a team without a rota says so: its alarms go to its monitors in order', async () => {
    expect(await onCall('2030-01-08T02:00:00Z')).toEqual({ hasRota: false, at: '2030-01-08T02:00:00.000Z' });
  });

  it('an alarm at 02:00 finds the night layer on call, the day layer next; at 10:00 the day monitor', async () => {
    const team = (await superadmin.agent.put(`/api/teams/${teamId}/on-call-schedule`).set(XHR).send(rota()).expect(200)).body;
    expect(team).toMatchObject({ coverRequired: 'warn', onCallSchedule: { timeZone: 'Europe/London', overrides: [] } });
    // 8 January 2030 is a Tuesday in winter: London is on UTC.
    const twoAm = await onCall('2030-01-08T02:00:00Z');
    expect(twoAm).toMatchObject({
      hasRota: true,
      now: {
        userId: night.id,
        name: 'ocnight person',
        layerName: 'Nights',
        start: '2030-01-07T20:00:00.000Z',
        end: '2030-01-08T08:00:00.000Z',
      },
      next: { userId: day.id, layerName: 'Days' },
      after: { userId: day.id, start: '2030-01-08T08:00:00.000Z', end: '2030-01-08T20:00:00.000Z' },
    });
    const tenAm = await onCall('2030-01-08T10:00:00Z', night);
    expect(tenAm.now).toMatchObject({ userId: day.id, layerName: 'Days' });
    expect(tenAm.next).toBeUndefined();
    expect(tenAm.after).toMatchObject({ userId: night.id, start: '2030-01-08T20:00:00.000Z' });
  });

  it('in summer the night still starts at 20:00 London time (19:00 UTC)', async () => {
    const night9pm = await onCall('2030-07-09T19:30:00Z');
    expect(night9pm.now).toMatchObject({ userId: night.id, start: '2030-07-09T19:00:00.000Z', end: '2030-07-10T07:00:00.000Z' });
  });

  it("an override covers one monitor's Saturday, 08:00 to 20:00, and goes when removed", async () => {
    const override = (
      await superadmin.agent
        .post(`/api/teams/${teamId}/on-call/overrides`)
        .set(XHR)
        .send({ layer: 1, userId: deputy.id, start: '2030-01-12T08:00:00Z', end: '2030-01-12T20:00:00Z' })
        .expect(201)
    ).body;
    expect(override).toEqual({
      id: expect.any(String),
      layer: 1,
      userId: deputy.id,
      start: '2030-01-12T08:00:00.000Z',
      end: '2030-01-12T20:00:00.000Z',
    });
    expect((await onCall('2030-01-12T10:00:00Z')).now).toMatchObject({ userId: deputy.id, via: 'override' });
    expect((await onCall('2030-01-11T10:00:00Z')).now).toMatchObject({ userId: day.id });
    // Saving the layers again keeps the override.
    await superadmin.agent.put(`/api/teams/${teamId}/on-call-schedule`).set(XHR).send(rota()).expect(200);
    expect((await onCall('2030-01-12T10:00:00Z')).now).toMatchObject({ userId: deputy.id });
    await superadmin.agent.delete(`/api/teams/${teamId}/on-call/overrides/${override.id}`).set(XHR).expect(200);
    expect((await onCall('2030-01-12T10:00:00Z')).now).toMatchObject({ userId: day.id });
    await superadmin.agent
      .delete(`/api/teams/${teamId}/on-call/overrides/${override.id}`)
      .set(XHR)
      .expect(404, { message: 'Override not found', field: 'overrideId' });
  });

  it("an away monitor's stretch goes to their deputy until they are back", async () => {
    const until = new Date(Date.now() + 3 * 3600_000);
    await day.agent.post(`/api/users/${day.id}/away`).set(XHR).send({ until: until.toISOString() }).expect(200);
    // The day layer covers all day; the night layer covers nights; a moment in the next hour in daytime or at night.
    const soon = new Date(Date.now() + 3600_000).toISOString();
    const now = (await onCall(soon)).now;
    if (now.layerName === 'Days') expect(now).toMatchObject({ userId: deputy.id, via: 'deputy', forUserId: day.id });
    else expect(now).toMatchObject({ userId: night.id });
    const dayTimeline = (
      await superadmin.agent.get(`/api/teams/${teamId}/on-call/timeline`).query({ from: soon, to: until.toISOString() }).expect(200)
    ).body;
    expect(dayTimeline.layers[1].slots.every((s: { userId: number }) => s.userId === deputy.id)).toBe(true);
    await day.agent.post(`/api/users/${day.id}/away`).set(XHR).send({ until: null }).expect(200);
  });

  it('the timeline shows each layer, the final rota and its gaps', async () => {
    const body = (
      await superadmin.agent
        .get(`/api/teams/${teamId}/on-call/timeline`)
        .query({ from: '2030-01-08T00:00:00Z', to: '2030-01-09T00:00:00Z' })
        .expect(200)
    ).body;
    expect(body.timeZone).toBe('Europe/London');
    expect(body.layers.map((l: { name: string }) => l.name)).toEqual(['Nights', 'Days']);
    expect(body.final.map((s: { userId: number; start: string }) => [s.userId, s.start])).toEqual([
      [night.id, '2030-01-08T00:00:00.000Z'],
      [day.id, '2030-01-08T08:00:00.000Z'],
      [night.id, '2030-01-08T20:00:00.000Z'],
    ]);
    expect(body.gaps).toEqual([]);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const before = await version();
    const bad = async (body: unknown, field: string) => {
      const res = await superadmin.agent.put(`/api/teams/${teamId}/on-call-schedule`).set(XHR).send(body).expect(400);
      expect(res.body.field).toBe(field);
    };
    const good = rota();
    await bad({ ...good, schedule: { ...good.schedule, timeZone: 'Mars/Olympus' } }, 'schedule.timeZone');
    await bad({ ...good, schedule: { ...good.schedule, layers: [] } }, 'schedule.layers');
    await bad(
      { ...good, schedule: { ...good.schedule, layers: [{ ...good.schedule.layers[1], start: '2026-13-01T08:00' }] } },
      'schedule.layers.0.start',
    );
    await bad(
      { ...good, schedule: { ...good.schedule, layers: [{ ...good.schedule.layers[1], rotation: 'custom' }] } },
      'schedule.layers.0.turnDays',
    );
    await bad({ ...good, coverRequired: 'maybe' }, 'coverRequired');
    // Someone who neither monitors nor deputises for the team would be told of alarms they cannot see.
    await bad(
      { ...good, schedule: { ...good.schedule, layers: [{ ...good.schedule.layers[1], userIds: [outsider.id] }] } },
      'schedule.layers.0.userIds.0',
    );
    const override = (body: unknown) => superadmin.agent.post(`/api/teams/${teamId}/on-call/overrides`).set(XHR).send(body);
    expect(
      (await override({ layer: 4, userId: day.id, start: '2030-01-12T08:00:00Z', end: '2030-01-12T20:00:00Z' }).expect(400)).body.field,
    ).toBe('layer');
    expect(
      (await override({ layer: 0, userId: outsider.id, start: '2030-01-12T08:00:00Z', end: '2030-01-12T20:00:00Z' }).expect(400)).body
        .field,
    ).toBe('userId');
    expect(
      (await override({ layer: 0, userId: day.id, start: '2030-01-12T08:00:00Z', end: '2030-01-12T07:00:00Z' }).expect(400)).body.field,
    ).toBe('end');
    expect((await override({ layer: 0, userId: day.id, start: 'Saturday', end: '2030-01-12T07:00:00Z' }).expect(400)).body.field).toBe(
      'start',
    );
    const timeline = (query: Record<string, string>) => superadmin.agent.get(`/api/teams/${teamId}/on-call/timeline`).query(query);
    expect((await timeline({ from: '2030-01-01T00:00:00Z', to: '2030-06-01T00:00:00Z' }).expect(400)).body.field).toBe('to');
    expect((await timeline({ from: '2030-06-01T00:00:00Z' }).expect(200)).body.hasRota).toBe(true);
    expect((await superadmin.agent.get(`/api/teams/${teamId}/on-call`).query({ at: 'now' }).expect(400)).body.field).toBe('at');
    expect(await version()).toBe(before);
  });

  it('a monitor on the rota cannot be taken off the team until they are off the rota; a deleted admin leaves it', async () => {
    const res = await superadmin.agent
      .patch(`/api/teams/${teamId}`)
      .set(XHR)
      .send({ monitors: [{ userId: day.id }] })
      .expect(400);
    expect(res.body.field).toBe('monitors');
    await superadmin.agent.delete(`/api/users/${night.id}`).set(XHR).expect(200);
    const team = (await superadmin.agent.get(`/api/teams/${teamId}`).expect(200)).body;
    expect(team.onCallSchedule.layers[0]).toMatchObject({ name: 'Nights', userIds: [] });
    // With the night layer empty, 02:00 falls to the day layer.
    expect((await onCall('2030-01-08T02:00:00Z')).now).toMatchObject({ userId: day.id, layerName: 'Days' });
  });

  it('only the superadmin sets the rota; an admin of another team cannot read it', async () => {
    await day.agent.put(`/api/teams/${teamId}/on-call-schedule`).set(XHR).send(rota()).expect(403);
    await outsider.agent.get(`/api/teams/${teamId}/on-call`).expect(404);
  });

  it('a shift started into a gap in the rota is refused, or warned of, as the team says', async () => {
    const coverTeam = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Cover Estates', monitors: [{ userId: day.id }] })
        .expect(201)
    ).body.id;
    const worker = await createAccount(t, superadmin.agent, 'worker', 'occover');
    await superadmin.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ teamId: coverTeam }).expect(200);
    const depot = `Cover depot ${Date.now()}`;
    await superadmin.agent.post('/api/location-options').set(XHR).send({ name: depot }).expect(201);
    // The rota begins two hours from now, London time: until then nobody is on call.
    const begins = new Date(Math.ceil((Date.now() + 2 * 3600_000) / 60_000) * 60_000);
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/London', dateStyle: 'short', timeStyle: 'short' })
      .format(begins)
      .replace(' ', 'T');
    const setRota = (coverRequired: string) =>
      superadmin.agent
        .put(`/api/teams/${coverTeam}/on-call-schedule`)
        .set(XHR)
        .send({
          schedule: { timeZone: 'Europe/London', layers: [{ name: 'Days', start: local, rotation: 'daily', userIds: [day.id] }] },
          coverRequired,
        })
        .expect(200);
    const start = () => worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: depot });
    const end = async () => {
      await superadmin.agent.post(`/api/users/${worker.id}/force-clock-out`).set(XHR).expect(200);
    };

    await setRota('refuse');
    // Shifts hears of the new location a moment later: until then a start is a 400 on the location.
    const refused = await eventually(
      async () => {
        const res = await start();
        return res.status === 409 ? res : undefined;
      },
      10_000,
      100,
    );
    expect(refused.body).toEqual({
      message: expect.stringMatching(/^Nobody is on call for your team from \d\d:\d\d: your shift cannot start/),
      field: 'cover',
    });
    expect((await worker.agent.get(`/api/users/${worker.id}/with-relations`).expect(200)).body.onShift).toBe(false);

    await setRota('warn');
    const warned = await start().expect(200);
    expect(warned.body.onShift).toBe(true);
    expect(Date.parse(warned.body.coverWarning.gapStart)).toBeLessThanOrEqual(Date.now());
    expect(warned.body.coverWarning.gapEnd).toBe(begins.toISOString());
    await end();

    await setRota('off');
    expect((await start().expect(200)).body.coverWarning).toBeUndefined();
    await end();

    // Covered from now on: nothing to warn of, whatever the team says.
    await superadmin.agent
      .put(`/api/teams/${coverTeam}/on-call-schedule`)
      .set(XHR)
      .send({
        schedule: {
          timeZone: 'Europe/London',
          layers: [{ name: 'Days', start: '2026-01-05T08:00', rotation: 'daily', userIds: [day.id] }],
        },
        coverRequired: 'refuse',
      })
      .expect(200);
    expect((await start().expect(200)).body.coverWarning).toBeUndefined();
  });

  it('lws_oncall_uncovered_seconds shows how long a team has had nobody on call, and 0 for a covered one', async () => {
    const gapTeam = (
      await superadmin.agent
        .post('/api/teams')
        .set(XHR)
        .send({ name: 'Gap Estates', monitors: [{ userId: day.id }] })
        .expect(201)
    ).body.id;
    // A rota that begins next year: nobody has been on call for as far back as the metric looks (a day).
    await superadmin.agent
      .put(`/api/teams/${gapTeam}/on-call-schedule`)
      .set(XHR)
      .send({
        schedule: {
          layers: [{ name: 'Days', start: `${new Date().getUTCFullYear() + 1}-01-05T08:00`, rotation: 'weekly', userIds: [day.id] }],
        },
      })
      .expect(200);
    const text = await (await fetch(t.stack.metricsUrl)).text();
    const sample = (team: string) =>
      Number(new RegExp(`^lws_oncall_uncovered_seconds\\{[^}]*team="${team}"[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(sample('Gap Estates')).toBeGreaterThanOrEqual(24 * 3600 - 60);
    expect(sample('Night Estates')).toBe(0);
  });

  it('each monitor sees their own stretches, and subscribes to them at a revocable calendar address', async () => {
    const mine = (await day.agent.get('/api/profile/on-call').expect(200)).body;
    expect(mine.hasFeed).toBe(false);
    expect(mine.slots.length).toBeGreaterThan(0);
    expect(mine.slots[0]).toMatchObject({ teamName: 'Night Estates', layerName: 'Days' });

    const { path } = (await day.agent.post('/api/profile/on-call/feed').set(XHR).expect(201)).body;
    expect(path).toMatch(/^\/api\/on-call\/feed\/lws_ical_[A-Za-z0-9_-]{43}$/);
    // A calendar app reads it with no session.
    const calendar = await request(t.url).get(path).expect(200);
    expect(calendar.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(calendar.text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(calendar.text).toContain('SUMMARY:On call: Night Estates (Days)');
    expect(calendar.text).toContain('X-WR-CALNAME:On call: ocday person');
    expect((await day.agent.get('/api/profile/on-call').expect(200)).body.hasFeed).toBe(true);

    // A new address replaces the old one, which stops working; revoking ends it.
    const { path: renewed } = (await day.agent.post('/api/profile/on-call/feed').set(XHR).expect(201)).body;
    await request(t.url).get(path).expect(404, { message: 'Calendar feed not found', field: 'token' });
    await request(t.url).get(renewed).expect(200);
    expect((await day.agent.delete('/api/profile/on-call/feed').set(XHR).expect(200)).body).toEqual({ revoked: true });
    await request(t.url).get(renewed).expect(404);
    expect((await day.agent.delete('/api/profile/on-call/feed').set(XHR).expect(200)).body).toEqual({ revoked: false });
    await request(t.url).get('/api/on-call/feed/not-a-token').expect(404);
  });
});
