/**
 * Signed outbound webhooks end to end: the notifications service on its own (real PostgreSQL and
 * NATS), LWS events published on its stream as the other services' relays publish them, and
 * receivers on 127.0.0.1 that verify every request with the standardwebhooks library and answer as
 * each test tells them (500, 410, 503 with Retry-After, or never). The retry schedule is shortened
 * so that a receiver's outage runs in seconds; the default schedule's gaps are held by
 * retry-schedule.spec.ts.
 */
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'nats';
import { Webhook } from 'standardwebhooks';
import type { CommandMap } from '@lws/contracts';
import { JetStreamBus, RpcClient, RemoteError } from '@lws/messaging';
import { createLogger, metricsText, startService, UnitOfWork, type RunningService } from '@lws/platform';
import { createTestDatabase, eventually, startReceivers, testServers, uniqueId, type TestDatabase } from '@lws/testing';
import { FakeTwilio } from '../fake-twilio/fake-twilio';
import { notificationsService } from '../service';
import { WebhookQueue } from './webhook-queue';

const ALL = { all: true, teamIds: [] as number[] };
const AT = () => new Date().toISOString();
let nextUser = 100 + (Date.now() % 100_000);

describe('outbound webhooks (real PostgreSQL and NATS, receivers on 127.0.0.1)', () => {
  let database: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let svc: RunningService;
  let bus: JetStreamBus;
  let rpc: RpcClient;
  let db: Client;
  let fake: FakeTwilio;
  let r: Awaited<ReturnType<typeof startReceivers>>;

  beforeAll(async () => {
    database = await createTestDatabase('lws_webhooks_');
    fake = await FakeTwilio.start({ autoNoAnswer: false });
    r = await startReceivers();
    const id = uniqueId('w');
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HEALTH_PORT: '0',
      OTEL_SDK_DISABLED: 'true',
      DATABASE_URL: database.url,
      NATS_URL: testServers.natsUrl,
      EVENTS_STREAM: `LWS_${id.toUpperCase()}`,
      SUBJECT_PREFIX: `${id}.`,
      FAKE_TWILIO_URL: fake.url,
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      WEBHOOKS_TIMEOUT_MS: '3000',
      // Eight attempts over about 8 s: a receiver's outage of a few seconds, and a give-up, in real time.
      WEBHOOKS_RETRY_SCHEDULE: '0s,500ms,500ms,1s,1s,1s,2s,2s',
    };
    svc = await startService(notificationsService, { env });
    bus = await JetStreamBus.connect({
      natsUrl: testServers.natsUrl,
      stream: env.EVENTS_STREAM!,
      subjectPrefix: env.SUBJECT_PREFIX!,
      logger: createLogger('test', 'silent'),
      name: 'webhooks-test',
    });
    rpc = await RpcClient.create({
      mode: 'nats',
      natsUrl: testServers.natsUrl,
      subjectPrefix: env.SUBJECT_PREFIX,
      logger: createLogger('test', 'silent'),
    });
    db = new Client({ connectionString: database.url });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    r?.release();
    await db?.end();
    await rpc?.close();
    await bus?.close();
    await svc?.close();
    await r?.close();
    await fake?.close();
    await database?.drop();
    const nc = await connect({ servers: testServers.natsUrl });
    await (await nc.jetstreamManager()).streams.delete(env.EVENTS_STREAM!).catch(() => undefined);
    await nc.close();
  });

  const send = <K extends keyof CommandMap>(pattern: K, req: CommandMap[K]['request']) => rpc.send(pattern, req);

  /** An event as the owning service's relay publishes it; answers its id. */
  async function publish(subject: string, data: Record<string, unknown>, producer = 'escalation'): Promise<string> {
    const id = randomUUID();
    await bus.publish({ id, subject, occurredAt: AT(), producer, data } as never);
    return id;
  }

  /** An endpoint at the receiver's `path`, whose requests the receiver verifies with its secret. */
  async function endpoint(path: string, fields: Partial<CommandMap['notifications.webhook_endpoint.create.v1']['request']> = {}) {
    const created = await send('notifications.webhook_endpoint.create.v1', {
      actorId: 1,
      scope: ALL,
      name: `Receiver ${path}`,
      url: `${r.base}/${path}`,
      eventTypes: ['alarm.opened.v1'],
      ...fields,
    });
    r.secrets.set(path, [created.secret]);
    return created.endpoint;
  }

  /** A worker in a team, known to notifications' users projection. */
  async function worker(teamId: number): Promise<number> {
    const userId = nextUser++;
    await publish(
      'identity.user.created.v1',
      { userId, username: `w${userId}`, name: `Sam ${userId}`, role: 'worker', teamId, version: 1 },
      'identity',
    );
    await eventually(
      async () => (await db.query('select team_id from notifications.users where user_id = $1', [userId])).rows[0]?.team_id === teamId,
    );
    return userId;
  }

  const alarmOpened = (teamId: number, extra: Record<string, unknown> = {}) =>
    publish('escalation.alarm.opened.v1', {
      alarmId: randomUUID(),
      userId: nextUser++,
      kind: 'missed_check_in',
      openedAt: AT(),
      teamId,
      ...extra,
    });

  const deliveries = (endpointId: string) =>
    send('notifications.webhook_delivery.list.v1', { actorId: 1, scope: ALL, endpointId, limit: 100 });

  it('makes an endpoint and answers its secret once; lists never show it; refuses what it cannot use, naming the field', async () => {
    const created = await send('notifications.webhook_endpoint.create.v1', {
      actorId: 9,
      scope: ALL,
      name: '  Northern ARC  ',
      url: `${r.base}/make`,
      eventTypes: ['alarm.opened.v1', 'alarm.opened.v1', 'shift.started.v1'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    expect(created.endpoint).toMatchObject({
      name: 'Northern ARC',
      eventTypes: ['alarm.opened.v1', 'shift.started.v1'],
      receivesDuress: false,
      enabled: true,
      createdBy: 9,
      pending: 0,
    });
    expect(created.endpoint.teams).toBeUndefined();
    const listed = (await send('notifications.webhook_endpoint.list.v1', { actorId: 9, scope: ALL })).endpoints;
    expect(listed.find((e) => e.id === created.endpoint.id)).toEqual(created.endpoint);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const stored = (await db.query('select secret_sealed from notifications.webhook_endpoints where id = $1', [created.endpoint.id]))
      .rows[0];
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain(created.secret.slice(6));

    const refused = (req: Partial<CommandMap['notifications.webhook_endpoint.create.v1']['request']>) =>
      send('notifications.webhook_endpoint.create.v1', {
        actorId: 9,
        scope: ALL,
        name: 'X',
        url: `${r.base}/x`,
        eventTypes: ['alarm.opened.v1'],
        ...req,
      }).then(
        () => undefined,
        (e: RemoteError) => ({ status: e.status, field: e.field }),
      );
    expect(await refused({ eventTypes: ['alarm.exploded.v1'] })).toEqual({ status: 400, field: 'eventTypes' });
    expect(await refused({ eventTypes: [] })).toEqual({ status: 400, field: 'eventTypes' });
    expect(await refused({ eventTypes: ['duress.raised.v1'] })).toEqual({ status: 400, field: 'eventTypes' });
    expect(await refused({ name: '   ' })).toEqual({ status: 400, field: 'name' });
    expect(await refused({ url: 'http://hooks.example.org/x' })).toEqual({ status: 400, field: 'url' });
    expect(await refused({ url: 'https://10.0.0.8/x' })).toEqual({ status: 400, field: 'url' });
    expect(await refused({ scope: { all: false, teamIds: [3] }, teams: { teamIds: [4] } })).toEqual({ status: 403, field: 'teams' });
    await send('notifications.webhook_endpoint.delete.v1', { actorId: 9, scope: ALL, endpointId: created.endpoint.id });
    expect((await send('notifications.webhook_endpoint.list.v1', { actorId: 9, scope: ALL })).endpoints.map((e) => e.id)).not.toContain(
      created.endpoint.id,
    );
  });

  it("shows an admin only the endpoints of their own teams, and refuses them another's", async () => {
    const mine = await endpoint('scope-mine', { scope: { all: false, teamIds: [31, 32] } });
    expect(mine.teams).toEqual({ teamIds: [31, 32] });
    const wider = await endpoint('scope-wider', { teams: { teamIds: [31, 33] } });
    const admin = { all: false, teamIds: [31, 32] };
    const seen = (await send('notifications.webhook_endpoint.list.v1', { actorId: 5, scope: admin })).endpoints.map((e) => e.id);
    expect(seen).toContain(mine.id);
    expect(seen).not.toContain(wider.id);
    await expect(
      send('notifications.webhook_endpoint.update.v1', { actorId: 5, scope: admin, endpointId: wider.id, enabled: false }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      send('notifications.webhook_endpoint.delete.v1', { actorId: 5, scope: admin, endpointId: wider.id }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(
      send('notifications.webhook_endpoint.update.v1', { actorId: 5, scope: admin, endpointId: mine.id, allTeams: true }),
    ).rejects.toMatchObject({ status: 403 });
    await send('notifications.webhook_endpoint.delete.v1', { actorId: 5, scope: admin, endpointId: mine.id });
    expect((await send('notifications.webhook_endpoint.list.v1', { actorId: 5, scope: admin })).endpoints.map((e) => e.id)).not.toContain(
      mine.id,
    );
  });

  it('after a receiver outage, every subscribed event arrives, signed, once per webhook-id', async () => {
    const team = 41;
    const userId = await worker(team);
    const all = (await send('notifications.webhook_event_type.list.v1', {})).eventTypes.map((t) => t.type);
    const outage = await endpoint('outage', { eventTypes: all, teams: { teamIds: [team] }, receivesDuress: true });
    let down = true;
    r.answers.set('outage', () => (down ? { status: 500, body: 'receiver restarting' } : { status: 200, body: 'ok' }));
    const alarmId = randomUUID();
    const shiftId = randomUUID();
    const alarm = { alarmId, userId, teamId: team };
    await publish('shifts.shift.started.v1', { shiftId, userId, location: 'Depot', startedAt: AT(), nextCheckInAt: AT() }, 'shifts');
    await publish('escalation.alarm.opened.v1', { ...alarm, kind: 'missed_check_in', openedAt: AT(), dueAt: AT() });
    await publish('escalation.alarm.escalated.v1', {
      ...alarm,
      step: 0,
      action: 'notify_monitors',
      at: AT(),
      details: 'Pushed to monitors',
    });
    await publish('escalation.alarm.acknowledged.v1', { ...alarm, byUserId: 2, at: AT() });
    await publish('escalation.alarm.resolved.v1', {
      ...alarm,
      byUserId: 2,
      at: AT(),
      verdict: 'genuine',
      severity: 'minor',
      note: 'Called the worker',
    });
    await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId, raisedAt: AT() }, 'shifts');
    await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId, raisedAt: AT(), duress: true }, 'shifts');
    await publish('escalation.alarm.worker_safe.v1', { alarmId: randomUUID(), userId, at: AT(), teamId: team });
    await publish('shifts.shift.ended.v1', { shiftId, userId, endedAt: AT(), endedBy: userId, reason: 'worker' }, 'shifts');
    // Every type has been tried and refused at least once before the receiver comes back.
    await eventually(() => new Set(r.of('outage').map((x) => x.type)).size === all.length, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    down = false;
    await eventually(() => new Set(r.accepted('outage').map((x) => x.type)).size === all.length, 20_000, 100);
    // Nothing more comes once each was taken.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const accepted = r.accepted('outage');
    expect(accepted.every((x) => x.verified)).toBe(true);
    const perId = new Map<string, number>();
    for (const x of accepted) perId.set(x.id, (perId.get(x.id) ?? 0) + 1);
    expect([...perId.values()].every((n) => n === 1)).toBe(true);
    expect(accepted.map((x) => x.type).sort()).toEqual([...all].sort());
    // Each was tried again with the same webhook-id and body until it was taken.
    for (const x of accepted) {
      const tries = r.of('outage').filter((y) => y.id === x.id);
      expect(tries.length).toBeGreaterThan(1);
      expect(new Set(tries.map((y) => y.body)).size).toBe(1);
    }
    const body = JSON.parse(accepted.find((x) => x.type === 'alarm.resolved.v1')!.body);
    expect(body).toEqual({
      type: 'alarm.resolved.v1',
      timestamp: expect.any(String),
      data: {
        alarmId,
        userId,
        teamId: team,
        byUserId: 2,
        at: expect.any(String),
        verdict: 'genuine',
        severity: 'minor',
        note: 'Called the worker',
      },
    });
    expect(JSON.parse(accepted.find((x) => x.type === 'shift.started.v1')!.body).data).toMatchObject({ shiftId, userId, teamId: team });
    // The delivery log shows each attempt: the refusals with the receiver's words, then the success.
    const log = await deliveries(outage.id);
    expect(log.deliveries.every((d) => d.status === 'succeeded')).toBe(true);
    const first = log.deliveries[0];
    expect(first.attemptLog.at(-1)).toMatchObject({ outcome: 'succeeded', httpStatus: 200, responseExcerpt: 'ok' });
    expect(first.attemptLog[0]).toMatchObject({ outcome: 'retrying', httpStatus: 500, responseExcerpt: 'receiver restarting' });
    expect(first.attemptLog.map((a) => a.attempt)).toEqual(first.attemptLog.map((_, i) => i + 1));
    expect(r.of('outage')[0].headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': expect.stringContaining('LWS') });
  }, 60_000);

  it('a request whose body was changed on the way fails verification at the receiver', async () => {
    const team = 42;
    await endpoint('tamper', { teams: { teamIds: [team] } });
    await alarmOpened(team);
    const [got] = (await eventually(() => (r.accepted('tamper').length > 0 ? r.accepted('tamper') : undefined)))!;
    expect(got.verified).toBe(true);
    const secret = r.secrets.get('tamper')![0];
    expect(() => new Webhook(secret).verify(got.body, got.headers)).not.toThrow();
    const changed = got.body.replace('"missed_check_in"', '"emergency"');
    expect(changed).not.toBe(got.body);
    expect(() => new Webhook(secret).verify(changed, got.headers)).toThrow('No matching signature found');
  });

  it('410 Gone disables the endpoint, says why, and nothing more is sent to it', async () => {
    const team = 43;
    const gone = await endpoint('gone', { teams: { teamIds: [team] } });
    r.answers.set('gone', () => ({ status: 410, body: 'no such hook' }));
    await alarmOpened(team);
    await eventually(async () => {
      const e = (await send('notifications.webhook_endpoint.list.v1', { actorId: 1, scope: ALL })).endpoints.find((x) => x.id === gone.id);
      return e && !e.enabled ? e : undefined;
    });
    const listed = (await send('notifications.webhook_endpoint.list.v1', { actorId: 1, scope: ALL })).endpoints.find(
      (x) => x.id === gone.id,
    )!;
    expect(listed).toMatchObject({ enabled: false, disabledReason: 'The endpoint answered 410 Gone', pending: 0 });
    expect(listed.lastDelivery).toMatchObject({ status: 'failed', httpStatus: 410 });
    await alarmOpened(team);
    await alarmOpened(team);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(r.of('gone')).toHaveLength(1);
    expect((await deliveries(gone.id)).deliveries).toHaveLength(1);
    await expect(send('notifications.webhook_endpoint.test.v1', { actorId: 1, scope: ALL, endpointId: gone.id })).rejects.toMatchObject({
      status: 409,
    });
  });

  it("honours a receiver's Retry-After, whatever the schedule says", async () => {
    const team = 44;
    const busy = await endpoint('busy', { teams: { teamIds: [team] } });
    r.answers.set('busy', (n) =>
      n === 0
        ? { status: 503, headers: { 'retry-after': '3' } }
        : n === 1
          ? { status: 429, headers: { 'retry-after': new Date(Date.now() + 2000).toUTCString() } }
          : { status: 200 },
    );
    await alarmOpened(team);
    await eventually(() => r.accepted('busy').length === 1, 20_000);
    const [first, second, third] = r.of('busy');
    // The schedule alone would have tried again after 0.5 s each time.
    expect(second.at - first.at).toBeGreaterThanOrEqual(3000);
    expect(third.at - second.at).toBeGreaterThanOrEqual(1000);
    const log = await eventually(async () => {
      const [d] = (await deliveries(busy.id)).deliveries;
      return d?.status === 'succeeded' ? d.attemptLog : undefined;
    });
    expect(log?.map((a) => a.httpStatus)).toEqual([503, 429, 200]);
  }, 30_000);

  it('a slow endpoint does not delay an SMS: the SMS sender has its own queue', async () => {
    const team = 45;
    await endpoint('slow', { teams: { teamIds: [team] } });
    r.answers.set('slow', () => 'hang');
    await alarmOpened(team);
    await eventually(() => r.of('slow').length === 1);
    const started = Date.now();
    const to = `+4477009${String(Date.now()).slice(-5)}`;
    await publish('escalation.notification.requested.v1', {
      requestId: randomUUID(),
      channel: 'sms',
      toPhone: to,
      purpose: 'missed_check_in',
      title: 'Missed check-in',
      body: 'Sam missed a check-in',
    });
    await eventually(() => fake.messages.find((m) => m.to === to), 5000, 20);
    // Sent while the webhook still hangs, well inside its 3 s timeout.
    expect(Date.now() - started).toBeLessThan(2500);
    expect(r.of('slow')).toHaveLength(1);
    expect(r.of('slow')[0].status).toBeUndefined();
    r.answers.set('slow', () => ({ status: 204 }));
    r.release();
  });

  it('duress goes only to endpoints allowed it; the others never learn of it', async () => {
    const team = 46;
    const userId = await worker(team);
    const types = ['alarm.opened.v1', 'worker.safe.v1', 'emergency.raised.v1'];
    await endpoint('duress-yes', { teams: { teamIds: [team] }, eventTypes: [...types, 'duress.raised.v1'], receivesDuress: true });
    await endpoint('duress-no', { teams: { teamIds: [team] }, eventTypes: types });
    await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId, raisedAt: AT(), duress: true }, 'shifts');
    await publish('escalation.alarm.opened.v1', {
      alarmId: randomUUID(),
      userId,
      kind: 'emergency',
      openedAt: AT(),
      duress: true,
      teamId: team,
    });
    await publish('escalation.alarm.worker_safe.v1', { alarmId: randomUUID(), userId, at: AT(), underDuress: true, teamId: team });
    await publish('escalation.alarm.opened.v1', { alarmId: randomUUID(), userId, kind: 'emergency', openedAt: AT(), teamId: team });
    await eventually(() => r.accepted('duress-yes').length === 4 && r.accepted('duress-no').length === 1, 15_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const yes = r.accepted('duress-yes').map((x) => JSON.parse(x.body));
    expect(yes.map((b) => b.type).sort()).toEqual(['alarm.opened.v1', 'alarm.opened.v1', 'duress.raised.v1', 'worker.safe.v1']);
    expect(yes.filter((b) => b.data.duress === true || b.data.underDuress === true)).toHaveLength(2);
    const no = r.of('duress-no').map((x) => JSON.parse(x.body));
    expect(no).toHaveLength(1);
    expect(no[0]).toMatchObject({ type: 'alarm.opened.v1', data: { kind: 'emergency' } });
    expect(no[0].data).not.toHaveProperty('duress');
  });

  it("only sends an endpoint limited to teams the events of those teams' workers", async () => {
    const [mine, other] = [47, 48];
    const inTeam = await worker(mine);
    const outside = await worker(other);
    await endpoint('teams', { teams: { teamIds: [mine] }, eventTypes: ['shift.started.v1', 'alarm.opened.v1'] });
    const shift = (userId: number) =>
      publish(
        'shifts.shift.started.v1',
        { shiftId: randomUUID(), userId, location: 'Depot', startedAt: AT(), nextCheckInAt: AT() },
        'shifts',
      );
    await shift(outside);
    await alarmOpened(other);
    await shift(inTeam);
    await alarmOpened(mine);
    await eventually(() => r.accepted('teams').length === 2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(r.of('teams').map((x) => JSON.parse(x.body).data.teamId)).toEqual([mine, mine]);
  });

  it('gives up when the schedule runs out (counted, and failed in the log), and a replay sends it again', async () => {
    const team = 49;
    const down = await endpoint('down', { teams: { teamIds: [team] } });
    let up = false;
    r.answers.set('down', () => (up ? { status: 200 } : { status: 502 }));
    const failedBefore = await metric('lws_webhook_deliveries_total', { service: 'notifications', outcome: 'failed' });
    await alarmOpened(team);
    const failed = (await eventually(async () => {
      const [d] = (await deliveries(down.id)).deliveries;
      return d?.status === 'failed' ? d : undefined;
    }, 20_000))!;
    expect(r.of('down')).toHaveLength(8);
    expect(failed).toMatchObject({ attempts: 8, lastHttpStatus: 502, lastError: 'The endpoint answered 502 (gave up after 8 attempts)' });
    expect(failed.attemptLog.map((a) => a.outcome)).toEqual([...Array(7).fill('retrying'), 'failed']);
    expect(await metric('lws_webhook_deliveries_total', { service: 'notifications', outcome: 'failed' })).toBe(failedBefore + 1);
    expect(
      (await send('notifications.webhook_delivery.list.v1', { actorId: 1, scope: ALL, endpointId: down.id, limit: 10, status: 'failed' }))
        .deliveries,
    ).toHaveLength(1);

    up = true;
    expect(await send('notifications.webhook_delivery.replay.v1', { actorId: 1, scope: ALL, deliveryId: failed.id })).toEqual({
      deliveryIds: [failed.id],
    });
    await eventually(async () => (await deliveries(down.id)).deliveries[0].status === 'succeeded');
    expect(r.accepted('down')).toHaveLength(1);
    expect(r.accepted('down')[0].id).toBe(failed.messageId);
    // Replaying what succeeded by its message sends nothing: only failed or canceled deliveries are re-queued.
    expect(await send('notifications.webhook_delivery.replay.v1', { actorId: 1, scope: ALL, messageId: failed.messageId })).toEqual({
      deliveryIds: [],
    });
    await expect(
      send('notifications.webhook_delivery.replay.v1', { actorId: 1, scope: ALL, messageId: 'msg_unknown' }),
    ).rejects.toMatchObject({ status: 404 });
    await expect(send('notifications.webhook_delivery.replay.v1', { actorId: 1, scope: ALL })).rejects.toMatchObject({
      status: 400,
      field: 'deliveryId',
    });
  }, 40_000);

  it('sends a test event on request, and after a rotation signs with both secrets for a while', async () => {
    const ping = await endpoint('ping', { eventTypes: ['shift.ended.v1'] });
    const sent = await send('notifications.webhook_endpoint.test.v1', { actorId: 1, scope: ALL, endpointId: ping.id });
    await eventually(() => r.accepted('ping').length === 1);
    expect(r.accepted('ping')[0]).toMatchObject({ id: sent.messageId, type: 'webhook.test.v1', verified: true });
    const [oldSecret] = r.secrets.get('ping')!;
    const rotated = await send('notifications.webhook_endpoint.rotate_secret.v1', { actorId: 1, scope: ALL, endpointId: ping.id });
    expect(rotated.secret).not.toBe(oldSecret);
    await send('notifications.webhook_endpoint.test.v1', { actorId: 1, scope: ALL, endpointId: ping.id });
    const second = await eventually(() => r.accepted('ping')[1]);
    expect(second.headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(second.body, second.headers)).not.toThrow();
    expect(() => new Webhook(rotated.secret).verify(second.body, second.headers)).not.toThrow();
  });

  it("enqueueDirect writes one message for one named endpoint in the caller's transaction, and it is sent after the commit", async () => {
    const target = await endpoint('direct', { eventTypes: ['shift.ended.v1'], teams: { teamIds: [50] } });
    const bystander = await endpoint('bystander', { eventTypes: ['shift.ended.v1'] });
    const queue = svc.app.get(WebhookQueue);
    const alarmId = randomUUID();
    const sent = await svc.app
      .get(UnitOfWork)
      .run((tx, _emit, afterCommit) =>
        queue.enqueueDirect(tx, target.id, 'alarm.handoff.v1', { alarmId, reason: 'No monitor acknowledged' }, { afterCommit }),
      );
    expect(sent?.messageId).toMatch(/^msg_/);
    await eventually(() => r.accepted('direct').length === 1);
    expect(JSON.parse(r.accepted('direct')[0].body)).toEqual({
      type: 'alarm.handoff.v1',
      timestamp: expect.any(String),
      data: { alarmId, reason: 'No monitor acknowledged' },
    });
    expect(r.of('bystander')).toHaveLength(0);
    expect(
      await svc.app.get(UnitOfWork).run((tx) => queue.enqueueDirect(tx, bystander.id, 'duress.raised.v1', {}, { duress: true })),
    ).toBeUndefined();
    expect(await svc.app.get(UnitOfWork).run((tx) => queue.enqueueDirect(tx, randomUUID(), 'alarm.handoff.v1', {}))).toBeUndefined();
  });

  it('exports the queue and the attempts for an operator to see', async () => {
    const text = await metricsText();
    expect(text.body).toMatch(/lws_webhook_queue\{service="notifications",state="due"\} \d+/);
    expect(text.body).toMatch(/lws_webhook_oldest_due_age_seconds\{service="notifications"\} \d+/);
    expect(await metric('lws_webhook_deliveries_total', { service: 'notifications', outcome: 'succeeded' })).toBeGreaterThan(0);
    expect(await metric('lws_webhook_deliveries_total', { service: 'notifications', outcome: 'gone' })).toBeGreaterThan(0);
    expect(text.body).toContain('lws_webhook_attempt_duration_seconds_bucket');
  });

  it('turns a batch of events into their messages and deliveries in one transaction', async () => {
    const team = 51;
    const a = await endpoint('batch-a', { teams: { teamIds: [team] } });
    const b = await endpoint('batch-b', { teams: { teamIds: [team] } });
    // Stopped, the service leaves the events on the stream; started again, its feed pulls them together.
    await svc.close();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await alarmOpened(team));
    svc = await startService(notificationsService, { env });
    await eventually(() => r.accepted('batch-a').length === 12 && r.accepted('batch-b').length === 12, 20_000);
    // Messages are never written again once made: the transaction that made them is still their xmin.
    // Deliveries are (the sender records each attempt), but the batch stamped them with one time.
    const { rows } = await db.query(
      `select count(distinct m.id)::int as messages, count(distinct m.xmin::text)::int as transactions,
         count(*)::int as deliveries, count(distinct d.created_at)::int as stamps
       from notifications.webhook_deliveries d join notifications.webhook_messages m on m.id = d.message_id
       where m.source_event_id = any($1::uuid[])`,
      [ids],
    );
    expect(rows[0]).toEqual({ messages: 12, transactions: 1, deliveries: 24, stamps: 1 });
    expect(new Set(r.accepted('batch-a').map((x) => x.id)).size).toBe(12);
    expect((await deliveries(b.id)).deliveries.map((d) => d.messageId).sort()).toEqual(
      (await deliveries(a.id)).deliveries.map((d) => d.messageId).sort(),
    );
  }, 60_000);
});

/** The value of a counter's series in the process's metrics (0 when absent). */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const { body } = await metricsText();
  const wanted = Object.entries(labels);
  let total = 0;
  for (const line of body.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (wanted.every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}
