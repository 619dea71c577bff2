import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { JetStreamBus } from '@lws/messaging';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Dead letters end to end (real PostgreSQL, NATS, Redis): a poison event parked by the services
 * that consume it while the events behind it flow, an outbox row the bus refuses parked while the
 * rows behind it are published, and a superadmin who sees them, replays and discards them, each
 * recorded in the activity log.
 */
describe('dead letters: parked, visible, replayed and discarded', () => {
  let t: TestStack;
  let bus: JetStreamBus;
  let pg: Client;
  let agent: ReturnType<typeof request.agent>;

  beforeAll(async () => {
    t = await startTestStack();
    bus = await JetStreamBus.connect({
      natsUrl: t.env.NATS_URL!,
      stream: t.env.EVENTS_STREAM!,
      subjectPrefix: t.env.SUBJECT_PREFIX,
      logger: silent,
      name: 'dead-letters-test',
    });
    pg = new Client({ connectionString: t.env.DATABASE_URL });
    await pg.connect();
    agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
  }, 120_000);

  afterAll(async () => {
    await pg?.end();
    await bus?.close();
    await t?.stop();
  });

  const envelope = (subject: string, data: unknown) => ({
    id: randomUUID(),
    subject,
    occurredAt: new Date().toISOString(),
    producer: 'test',
    data,
  });

  it('a poison event and an unpublishable outbox row are parked, shown, and the events behind them flow', async () => {
    const poison = envelope('shifts.shift.started.v1', {
      shiftId: 'not-a-uuid',
      userId: 5,
      location: 'X',
      startedAt: 'yesterday',
      nextCheckInAt: 'soon',
    });
    await bus.publish(poison as never);
    const after = envelope('identity.user.created.v1', { userId: 900_001, username: 'behind', name: 'Behind Poison', role: 'worker' });
    await bus.publish(after as never);

    // Larger than the stream's message limit: the bus refuses it however often it is sent.
    const huge = envelope('locations.location.created.v1', { locationId: 77, name: 'x'.repeat(1_200_000), isActive: true });
    await pg.query('insert into locations.outbox (id, subject, payload) values ($1, $2, $3)', [
      huge.id,
      huge.subject,
      JSON.stringify(huge),
    ]);
    const create = await agent.post('/api/location-options').set(XHR).send({ name: 'Behind The Parked Row' }).expect(201);

    // The events behind both still arrive: escalation learns the user, shifts the new location.
    await eventually(async () => (await pg.query('select 1 from escalation.workers where user_id = 900001')).rowCount === 1, 20_000);
    await eventually(
      async () => (await pg.query('select 1 from shifts.locations where location_id = $1', [create.body.id])).rowCount === 1,
      20_000,
    );

    // Both consumers' letters for the poison event and the refused row (parked after its third refusal).
    const list = await eventually(async () => {
      const res = await agent.get('/api/dead-letters').expect(200);
      const letters = res.body.letters as { eventId: string }[];
      const ready = letters.filter((l) => l.eventId === poison.id).length === 3 && letters.some((l) => l.eventId === huge.id);
      return ready ? res.body : undefined;
    }, 30_000);
    expect(list.unreachable).toEqual([]);
    const ofPoison = list.letters.filter((l: { eventId: string }) => l.eventId === poison.id);
    // Every service that consumes shift starts parked it (notifications for its webhook feed); none ran a handler on it.
    expect(ofPoison.map((l: { service: string }) => l.service).sort()).toEqual(['audit', 'escalation', 'notifications']);
    for (const l of ofPoison) {
      expect(l).toMatchObject({ kind: 'consumer', subject: 'shifts.shift.started.v1', attempts: 1 });
      expect(l.error).toMatch(/shiftId/);
      expect(Date.parse(l.firstSeenAt)).not.toBeNaN();
    }
    const refused = list.letters.find((l: { eventId: string }) => l.eventId === huge.id);
    expect(refused).toMatchObject({
      service: 'locations',
      kind: 'outbox',
      consumer: 'outbox',
      subject: 'locations.location.created.v1',
      attempts: 3,
    });
    expect(refused.error).not.toBe('');
    expect({
      count: list.count,
      letters: list.letters.map((l: { service: string; subject: string }) => `${l.service} ${l.subject}`),
    }).toEqual({
      count: 4,
      letters: expect.arrayContaining([
        'audit shifts.shift.started.v1',
        'escalation shifts.shift.started.v1',
        'notifications shifts.shift.started.v1',
        'locations locations.location.created.v1',
      ]),
    });
  });

  it('replay runs the letter through the consumer again (still poison: it stays, with the error); discard closes it; both are logged', async () => {
    const { body } = await agent.get('/api/dead-letters').expect(200);
    const letter = body.letters.find((l: { service: string; kind: string }) => l.service === 'escalation' && l.kind === 'consumer');
    const again = await agent.post(`/api/dead-letters/${letter.id}/replay`).set(XHR).expect(200);
    expect(again.body).toMatchObject({ replayed: false, letter: { id: letter.id, attempts: 2 } });
    expect(again.body.error).toMatch(/shiftId/);

    const gone = await agent.post(`/api/dead-letters/${letter.id}/discard`).set(XHR).expect(200);
    expect(gone.body).toMatchObject({ discarded: true, letter: { id: letter.id } });
    await agent.post(`/api/dead-letters/${letter.id}/discard`).set(XHR).expect(404);

    const refused = body.letters.find((l: { kind: string }) => l.kind === 'outbox');
    await agent.post(`/api/dead-letters/${refused.id}/discard`).set(XHR).expect(200);
    const left = (await agent.get('/api/dead-letters').expect(200)).body;
    expect(left.count).toBe(2);
    expect(left.letters.map((l: { id: string }) => l.id)).not.toContain(letter.id);

    const log = await eventually(async () => {
      const res = await agent.get('/api/activity-logs').expect(200);
      const mine = res.body.filter((e: { details: string }) => e.details.startsWith('Dead letter'));
      return mine.length >= 3 ? mine : undefined;
    }, 20_000);
    const details = log.map((e: { details: string }) => e.details);
    expect(details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Dead letter replay failed again .*escalation consumer escalation-shifts, shifts\.shift\.started\.v1/),
        expect.stringMatching(/^Dead letter discarded: escalation consumer escalation-shifts/),
        expect.stringMatching(/^Dead letter discarded: locations outbox, locations\.location\.created\.v1/),
      ]),
    );
  });

  it('a malformed id is a 400 naming the field; an unknown one a 404', async () => {
    const bad = await agent.post('/api/dead-letters/nonsense/replay').set(XHR).expect(400);
    expect(bad.body).toMatchObject({ field: 'id' });
    await agent.post('/api/dead-letters/gateway:00000000-0000-4000-8000-000000000000/replay').set(XHR).expect(400);
    await agent.post(`/api/dead-letters/identity:${randomUUID()}/discard`).set(XHR).expect(404);
  });
});
