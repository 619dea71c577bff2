import request from 'supertest';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import { eventually, startReceivers } from '@lws/testing';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const WAIT_MS = 20_000;

interface Alarm {
  id: string;
  userId: number;
  state: string;
  acknowledgedByName: string | null;
  history: string[];
}
interface HandOffPayload {
  type: string;
  timestamp: string;
  data: {
    alarmId: string;
    kind: string;
    state: string;
    worker: { userId: number; name?: string; phone?: string };
    location?: string;
    shiftNote?: string;
    history: string[];
    step: number;
  };
}

/**
 * The escalation policy's hand_off step: an alarm nobody here acknowledges goes to a receiving
 * centre's webhook endpoint, signed (verified with the standardwebhooks library, as a centre would),
 * with what a responder needs; the centre acknowledges, notes and resolves it back with its API
 * token. A hand-off that cannot be sent is on the history and alerts an operator; one the bus loses
 * is asked for again until the endpoint has it.
 */
describe('hand-off to a receiving centre (real PostgreSQL, NATS, Redis; whole stack; receiver on 127.0.0.1)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let receivers: Awaited<ReturnType<typeof startReceivers>>;
  let db: Client;
  let teamId: number;
  const site = 'Hillside Estate';

  async function endpoint(path: string, name: string): Promise<{ id: string; secret: string }> {
    const res = await admin.agent
      .post('/api/webhooks/endpoints')
      .set(XHR)
      .send({ name, url: `${receivers.base}/${path}`, eventTypes: ['alarm.resolved.v1'] })
      .expect(201);
    receivers.secrets.set(path, [res.body.secret]);
    return { id: res.body.endpoint.id, secret: res.body.secret };
  }

  async function handOffTo(endpointId: string): Promise<void> {
    const missed_check_in = [
      { action: 'notify_monitors', after: 0 },
      { action: 'hand_off', after: 0, endpointId },
    ];
    await superadmin.agent.patch(`/api/teams/${teamId}`).set(XHR).send({ escalationPolicy: { missed_check_in } }).expect(200);
  }

  async function missedAlarm(): Promise<{ worker: Account; alarm: Alarm }> {
    const worker = await createAccount(t, admin.agent, 'worker', 'howorker');
    await eventually(
      async () =>
        (await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: site, note: 'Flat 3, dog' })).status ===
        200,
      WAIT_MS,
      100,
    );
    await superadmin.agent.post(`/api/simulate-check-in-due/${worker.id}`).set(XHR).expect(200);
    const alarm = await eventually(async () => {
      const all = (await admin.agent.get('/api/alarms').expect(200)).body as Alarm[];
      return all.find((a) => a.userId === worker.id);
    }, WAIT_MS);
    return { worker, alarm };
  }

  const alarmNow = async (id: string) =>
    ((await admin.agent.get('/api/alarms?open=false').expect(200)).body as Alarm[]).find((a) => a.id === id)!;

  beforeAll(async () => {
    receivers = await startReceivers();
    t = await startTestStack({
      env: {
        LOGIN_MAX_ATTEMPTS_PER_IP: '1000',
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        WEBHOOKS_RETRY_SCHEDULE: '0s,1s,1s,1s',
        WEBHOOKS_TIMEOUT_MS: '2000',
        ESCALATION_REQUEST_CONFIRM_SECONDS: '5',
      },
    });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'hoadmin');
    await admin.agent.post('/api/location-options').set(XHR).send({ name: site }).expect(201);
    teamId = ((await superadmin.agent.get('/api/teams').expect(200)).body as { id: number }[])[0].id;
    db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await t?.stop();
    await receivers?.close();
  });

  it('an unanswered alarm reaches the receiver signed, with the worker, where they are and the history; the centre acknowledges, notes and resolves it by token', async () => {
    const arc = await endpoint('arc', 'Northern ARC');
    const { secret } = (
      await admin.agent
        .post('/api/api-tokens')
        .set(XHR)
        .send({ name: 'Northern ARC', scopes: ['alarms:read', 'alarms:write'], expiresInDays: 30 })
        .expect(201)
    ).body as { secret: string };
    await handOffTo(arc.id);
    const { worker, alarm } = await missedAlarm();

    const got = await eventually(async () => receivers.accepted('arc').find((r) => r.type === 'alarm.handoff.v1'), WAIT_MS);
    // Verified as the receiving centre would, with the endpoint's secret; a changed body is not.
    expect(() => new Webhook(arc.secret).verify(got.body, got.headers)).not.toThrow();
    expect(() => new Webhook(arc.secret).verify(got.body.replace('Flat 3', 'Flat 4'), got.headers)).toThrow();
    const payload = JSON.parse(got.body) as HandOffPayload;
    expect(payload.data).toEqual(
      expect.objectContaining({
        alarmId: alarm.id,
        kind: 'missed_check_in',
        state: 'open',
        location: site,
        shiftNote: 'Flat 3, dog',
        step: 1,
        worker: expect.objectContaining({ userId: worker.id, name: 'howorker person', phone: expect.stringMatching(/^\+44/) }),
      }),
    );
    expect(payload.data.history.at(-1)).toMatch(/^Handed to the receiving centre/);
    // Once per hand-off: nothing sent twice.
    expect(receivers.of('arc').filter((r) => r.type === 'alarm.handoff.v1')).toHaveLength(1);

    await eventually(
      async () => (await alarmNow(alarm.id)).history.includes('The hand-off to the receiving centre was delivered'),
      WAIT_MS,
    );

    // The centre answers through the API with its token: no cookie, no CSRF header.
    const bearer = { Authorization: `Bearer ${secret}` };
    const acked = (await request(t.url).post(`/api/alarms/${alarm.id}/acknowledge`).set(bearer).expect(200)).body as Alarm;
    expect(acked.acknowledgedByName).toBe('Northern ARC');
    await request(t.url).post(`/api/alarms/${alarm.id}/notes`).set(bearer).send({ text: 'Keyholder called, police attending' }).expect(201);
    await request(t.url)
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(bearer)
      .send({ verdict: 'genuine', severity: 'minor', note: 'Worker found safe by police' })
      .expect(200);
    const closed = await alarmNow(alarm.id);
    expect(closed.state).toBe('resolved');
    expect(closed.history).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Handed to the receiving centre/),
        'Acknowledged by Northern ARC (API token of hoadmin person)',
        'Note from Northern ARC (API token of hoadmin person): Keyholder called, police attending',
        'Resolved by Northern ARC (API token of hoadmin person) (genuine, minor incident)',
      ]),
    );
    // The endpoint also hears the resolution it subscribed to.
    await eventually(async () => receivers.accepted('arc').some((r) => r.type === 'alarm.resolved.v1'), WAIT_MS);
  });

  it('a hand-off to a disabled endpoint fails visibly: on the history, and an operator is alerted', async () => {
    const gone = await endpoint('gone', 'Old control room');
    await admin.agent.patch(`/api/webhooks/endpoints/${gone.id}`).set(XHR).send({ enabled: false }).expect(200);
    await handOffTo(gone.id);
    const { worker, alarm } = await missedAlarm();
    await eventually(
      async () =>
        (await alarmNow(alarm.id)).history.some(
          (h) => h === 'The hand-off to the receiving centre failed: The webhook endpoint does not exist or is disabled',
        ),
      WAIT_MS,
    );
    await eventually(async () => {
      const log = (await admin.agent.get(`/api/activity-logs?userId=${worker.id}&limit=30`).expect(200)).body as { details: string }[];
      return log.some((e) => e.details.startsWith(`The hand-off of alarm ${alarm.id} to the receiving centre failed`));
    }, WAIT_MS);
    expect(receivers.of('gone')).toHaveLength(0);
  });

  it('a hand-off still waiting for a down endpoint is withdrawn once the alarm is resolved here', async () => {
    const late = await endpoint('late', 'Night desk');
    receivers.answers.set('late', () => ({ status: 503, headers: { 'Retry-After': '60' }, body: 'maintenance' }));
    await handOffTo(late.id);
    const { alarm } = await missedAlarm();
    await eventually(async () => receivers.of('late').length === 1, WAIT_MS);
    await admin.agent
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Worker rang in' })
      .expect(200);
    const delivery = await eventually(async () => {
      const rows = (await admin.agent.get(`/api/webhooks/endpoints/${late.id}/deliveries`).expect(200)).body as {
        eventType: string;
        status: string;
        lastError: string | null;
      }[];
      return rows.find((d) => d.eventType === 'alarm.handoff.v1' && d.status === 'canceled');
    }, WAIT_MS);
    expect(delivery.lastError).toBe('Withdrawn: the alarm was resolved before the endpoint took it');
    // No operator alert for a hand-off withdrawn on purpose.
    const log = (await admin.agent.get('/api/activity-logs?limit=100').expect(200)).body as { details: string }[];
    expect(log.some((e) => e.details.startsWith(`The hand-off of alarm ${alarm.id}`))).toBe(false);
    // Tried once; never again after the withdrawal (the endpoint does hear of the resolution it subscribed to).
    expect(receivers.of('late').filter((r) => r.type === 'alarm.handoff.v1')).toHaveLength(1);
  });

  it('a hand-off the bus loses is asked for again and reaches the endpoint once', async () => {
    const arc = await endpoint('lost', 'Southern ARC');
    await handOffTo(arc.id);
    // The bus "loses" the first hand-off request: its outbox row is marked published without being
    // published, as a JetStream that lost what it acknowledged would leave it.
    await db.query(`
      create table if not exists escalation.chaos_drop_once (done boolean not null default false);
      delete from escalation.chaos_drop_once; insert into escalation.chaos_drop_once values (false);
      create or replace function escalation.chaos_lose_handoff() returns trigger language plpgsql as $$
      begin
        if new.payload::text like '%"channel": "webhook"%' and exists (select 1 from escalation.chaos_drop_once where not done) then
          update escalation.chaos_drop_once set done = true;
          new.published_at := now();
        end if;
        return new;
      end $$;
      drop trigger if exists chaos_lose_handoff on escalation.outbox;
      create trigger chaos_lose_handoff before insert on escalation.outbox for each row execute function escalation.chaos_lose_handoff();`);
    try {
      const { alarm } = await missedAlarm();
      const got = await eventually(async () => receivers.accepted('lost').find((r) => r.type === 'alarm.handoff.v1'), 30_000);
      expect((await db.query('select done from escalation.chaos_drop_once')).rows[0].done).toBe(true);
      expect(() => new Webhook(arc.secret).verify(got.body, got.headers)).not.toThrow();
      expect((JSON.parse(got.body) as HandOffPayload).data.alarmId).toBe(alarm.id);
      await eventually(
        async () => (await alarmNow(alarm.id)).history.includes('The hand-off to the receiving centre was delivered'),
        WAIT_MS,
      );
      expect(receivers.of('lost').filter((r) => r.type === 'alarm.handoff.v1')).toHaveLength(1);
    } finally {
      await db.query('drop trigger if exists chaos_lose_handoff on escalation.outbox');
    }
  }, 60_000);
});
