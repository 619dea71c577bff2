import { Webhook } from 'standardwebhooks';
import { eventually, startReceivers } from '@lws/testing';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const OUTAGE_MS = 120_000;
const EVENT_TYPES = [
  'shift.started.v1',
  'alarm.opened.v1',
  'checkin.missed.v1',
  'alarm.acknowledged.v1',
  'alarm.resolved.v1',
  'shift.ended.v1',
];

/**
 * A receiving centre down for two minutes (every answer a 503, as a restarting server gives) while
 * a worker starts a shift, misses a check-in, and a monitor acknowledges and resolves the alarm and
 * ends the shift: once it is back, every event arrives, signed, exactly once per webhook-id. The
 * retry schedule is the default's shape with shorter gaps (the default's own gaps are held by
 * retry-schedule.spec.ts), so the outage is real time, not a moved clock.
 */
describe('webhooks through a two-minute receiver outage (whole stack; receiver on 127.0.0.1)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let receivers: Awaited<ReturnType<typeof startReceivers>>;

  beforeAll(async () => {
    receivers = await startReceivers();
    t = await startTestStack({
      env: {
        LOGIN_MAX_ATTEMPTS_PER_IP: '1000',
        WEBHOOKS_ALLOW_LOOPBACK: 'true',
        WEBHOOKS_RETRY_SCHEDULE: '0s,5s,30s,1m,1m,1m,1m,1m',
        WEBHOOKS_TIMEOUT_MS: '2000',
      },
    });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'woadmin');
    await admin.agent.post('/api/location-options').set(XHR).send({ name: 'Mill Lane' }).expect(201);
  }, 120_000);
  afterAll(async () => {
    await t?.stop();
    await receivers?.close();
  });

  it('every event arrives once per webhook-id after the receiver comes back', async () => {
    const created = await admin.agent
      .post('/api/webhooks/endpoints')
      .set(XHR)
      .send({ name: 'Control room', url: `${receivers.base}/control`, eventTypes: EVENT_TYPES })
      .expect(201);
    receivers.secrets.set('control', [created.body.secret]);
    let down = true;
    receivers.answers.set('control', () => (down ? { status: 503, body: 'restarting' } : { status: 200, body: 'ok' }));
    const outageEnds = Date.now() + OUTAGE_MS;

    const worker = await createAccount(t, admin.agent, 'worker', 'woworker');
    await eventually(
      async () => (await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: 'Mill Lane' })).status === 200,
      20_000,
      100,
    );
    await superadmin.agent.post(`/api/simulate-check-in-due/${worker.id}`).set(XHR).expect(200);
    const alarm = await eventually(async () => {
      const rows = (await admin.agent.get('/api/alarms').expect(200)).body as { id: string; userId: number }[];
      return rows.find((a) => a.userId === worker.id);
    }, 20_000);
    await admin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).expect(200);
    await admin.agent
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Phone died' })
      .expect(200);
    await superadmin.agent.post(`/api/users/${worker.id}/force-clock-out`).set(XHR).expect(200);

    // Every event was tried, and refused, while the receiver was down.
    await eventually(async () => new Set(receivers.of('control').map((r) => r.type)).size === EVENT_TYPES.length, 30_000);
    expect(receivers.accepted('control')).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageEnds - Date.now())));
    down = false;

    await eventually(async () => new Set(receivers.accepted('control').map((r) => r.type)).size === EVENT_TYPES.length, 150_000, 500);
    const accepted = receivers.accepted('control');
    // Once per webhook-id, each verified with the endpoint's secret as the receiver's library does.
    expect(new Set(accepted.map((r) => r.id)).size).toBe(accepted.length);
    expect(accepted.map((r) => r.type).sort()).toEqual([...EVENT_TYPES].sort());
    for (const r of accepted) expect(() => new Webhook(created.body.secret).verify(r.body, r.headers)).not.toThrow();
    // Each was tried more than once, with the same id and body every time.
    for (const r of accepted) {
      const tries = receivers.of('control').filter((x) => x.id === r.id);
      expect(tries.length).toBeGreaterThan(1);
      expect(new Set(tries.map((x) => x.body)).size).toBe(1);
    }
    // The delivery log shows the outage: failed attempts with the 503, then success.
    const deliveries = (await admin.agent.get(`/api/webhooks/endpoints/${created.body.endpoint.id}/deliveries?limit=20`).expect(200))
      .body as { status: string; attemptLog: { httpStatus: number | null; outcome: string }[] }[];
    expect(deliveries).toHaveLength(EVENT_TYPES.length);
    for (const d of deliveries) {
      expect(d.status).toBe('succeeded');
      expect(d.attemptLog.some((a) => a.httpStatus === 503 && a.outcome === 'retrying')).toBe(true);
      expect(d.attemptLog.filter((a) => a.outcome === 'succeeded')).toEqual([expect.objectContaining({ httpStatus: 200 })]);
    }
  }, 360_000);
});
