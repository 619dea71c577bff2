import request from 'supertest';
import { Client } from 'pg';
import { connect } from 'nats';
import { startService } from '@lws/platform';
import { locationsService } from '@lws/locations';
import { createTestDatabase, eventually, testServers, uniqueId } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { streamEvents, type StreamEvent } from './support/stream-events';

/** Events travel outbox → relay → JetStream; on a busy two-core machine that can take a while. */
const EVENT_WAIT_MS = 30_000;
const DEFAULT = 'The Prospect Building';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Option {
  id: number;
  name: string;
  isActive: boolean;
  createdAt: string;
  /** Admins and the superadmin only: whether they may change it. */
  canChange?: boolean;
}

describe('location options (real PostgreSQL, NATS, Redis)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let worker: Account;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '500' } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
    worker = await createAccount(t, admin.agent, 'worker');
  }, 120_000);
  afterAll(() => t?.stop());

  const list = async (who: Account = admin): Promise<Option[]> => (await who.agent.get('/api/location-options').expect(200)).body;
  const create = (name: string, who: Account = admin) => who.agent.post('/api/location-options').set(XHR).send({ name, isActive: true });
  const eventsOf = async (subject: string, locationId: number, count: number): Promise<StreamEvent['data'][]> =>
    eventually(async () => {
      const found = (await streamEvents(t, subject)).filter((e) => e.data.locationId === locationId).map((e) => e.data);
      return found.length >= count && found;
    }, EVENT_WAIT_MS);

  it("has 'The Prospect Building', active, from the first start, announced once on the stream", async () => {
    const seeded = (await list()).filter((l) => l.name === DEFAULT);
    // An admin of a one-team deployment may change every location (location-ownership.test.ts has teams).
    expect(seeded).toEqual([
      { id: expect.any(Number), name: DEFAULT, isActive: true, createdAt: expect.stringMatching(ISO), canChange: true },
    ]);
    const created = await eventsOf('locations.location.created.v1', seeded[0].id, 1);
    expect(created).toEqual([{ locationId: seeded[0].id, name: DEFAULT, isActive: true }]);
  });

  it('creates (trimmed), lists by name, renames, toggles and deletes a location, announcing each change', async () => {
    const res = await admin.agent.post('/api/location-options').set(XHR).send({ name: '  Riverside Depot  ', isActive: true }).expect(201);
    const depot: Option = res.body;
    expect(depot).toEqual({ id: expect.any(Number), name: 'Riverside Depot', isActive: true, createdAt: expect.stringMatching(ISO) });
    await create('aldgate Office').expect(201);

    const names = (await list(worker)).map((l) => l.name);
    expect(names.indexOf('aldgate Office')).toBeLessThan(names.indexOf('Riverside Depot'));
    expect(names.indexOf('Riverside Depot')).toBeLessThan(names.indexOf(DEFAULT));

    const renamed = await admin.agent
      .patch(`/api/location-options/${depot.id}`)
      .set(XHR)
      .send({ name: ' Riverside Depot East ' })
      .expect(200);
    expect(renamed.body).toEqual({ ...depot, name: 'Riverside Depot East' });

    const off = await superadmin.agent.patch(`/api/location-options/${depot.id}`).set(XHR).send({ isActive: false }).expect(200);
    expect(off.body).toEqual({ ...depot, name: 'Riverside Depot East', isActive: false });
    expect((await list(worker)).find((l) => l.id === depot.id)).toEqual(off.body);

    await admin.agent.patch(`/api/location-options/${depot.id}`).set(XHR).send({ isActive: true }).expect(200);
    await admin.agent.delete(`/api/location-options/${depot.id}`).set(XHR).expect(200, { ok: true });
    expect((await list()).some((l) => l.id === depot.id)).toBe(false);
    await admin.agent.delete(`/api/location-options/${depot.id}`).set(XHR).expect(404, { message: 'Location not found', field: 'id' });
    await admin.agent
      .patch(`/api/location-options/${depot.id}`)
      .set(XHR)
      .send({ isActive: false })
      .expect(404, { message: 'Location not found', field: 'id' });

    expect(await eventsOf('locations.location.created.v1', depot.id, 1)).toEqual([
      { locationId: depot.id, name: 'Riverside Depot', isActive: true },
    ]);
    expect(await eventsOf('locations.location.updated.v1', depot.id, 3)).toEqual([
      { locationId: depot.id, name: 'Riverside Depot East', isActive: true },
      { locationId: depot.id, name: 'Riverside Depot East', isActive: false },
      { locationId: depot.id, name: 'Riverside Depot East', isActive: true },
    ]);
    expect(await eventsOf('locations.location.deleted.v1', depot.id, 1)).toEqual([
      { locationId: depot.id, name: 'Riverside Depot East', deletedBy: admin.id },
    ]);
  });

  it('creates an inactive location when asked, and announces nothing for an edit that changes nothing', async () => {
    const res = await admin.agent.post('/api/location-options').set(XHR).send({ name: 'Storage Yard', is_active: false }).expect(201);
    expect(res.body.isActive).toBe(false);
    await admin.agent.patch(`/api/location-options/${res.body.id}`).set(XHR).send({ name: 'Storage Yard', isActive: false }).expect(200);
    await admin.agent.patch(`/api/location-options/${res.body.id}`).set(XHR).send({ isActive: true }).expect(200);
    // The stream is ordered: the one real change arriving alone shows the no-op announced nothing.
    expect(await eventsOf('locations.location.updated.v1', res.body.id, 1)).toEqual([
      { locationId: res.body.id, name: 'Storage Yard', isActive: true },
    ]);
  });

  it.each([
    ['no name', {}, 'name', 'Location name is required'],
    ['an empty name', { name: '' }, 'name', 'Location name is required'],
    ['a name of spaces', { name: '   ' }, 'name', 'Location name is required'],
    ['a number as name', { name: 7 }, 'name', 'Location name is required'],
    ['101 characters', { name: 'x'.repeat(101) }, 'name', 'Location name must be at most 100 characters'],
    ['isActive "yes"', { name: 'Yes Depot', isActive: 'yes' }, 'isActive', 'isActive must be true or false'],
  ])('refuses to create with %s (400 naming the field), writing nothing', async (_label, body, field, message) => {
    const before = await list();
    const res = await admin.agent.post('/api/location-options').set(XHR).send(body).expect(400);
    expect(res.body).toEqual({ message, field });
    expect(await list()).toEqual(before);
  });

  it('refuses unknown fields, an empty edit, a blank edited name and a bad id', async () => {
    const { body: loc } = await create('Validation House').expect(201);
    expect((await admin.agent.post('/api/location-options').set(XHR).send({ name: 'Other', id: 3 }).expect(400)).body).toEqual({
      message: 'Unknown field: id',
      field: 'id',
    });
    const patch = (id: number | string, body: object) => admin.agent.patch(`/api/location-options/${id}`).set(XHR).send(body);
    expect((await patch(loc.id, {}).expect(400)).body).toEqual({ message: 'Nothing to update' });
    expect((await patch(loc.id, { name: '  ' }).expect(400)).body).toEqual({ message: 'Location name is required', field: 'name' });
    expect((await patch(loc.id, { isActive: 'false' }).expect(400)).body).toEqual({
      message: 'isActive must be true or false',
      field: 'isActive',
    });
    expect((await patch('abc', { isActive: false }).expect(400)).body).toEqual({ message: 'Invalid location ID', field: 'id' });
    expect((await admin.agent.delete('/api/location-options/0').set(XHR).expect(400)).body).toEqual({
      message: 'Invalid location ID',
      field: 'id',
    });
    await patch(999999, { name: 'Nowhere' }).expect(404, { message: 'Location not found', field: 'id' });
    expect((await list()).find((l) => l.id === loc.id)).toEqual({ ...loc, canChange: true });
  });

  it('refuses a duplicate name in any letter case, on create and on rename (409)', async () => {
    const taken = { message: 'A location with this name already exists', field: 'name' };
    expect((await create('  the PROSPECT building ').expect(409)).body).toEqual(taken);
    const { body: mill } = await create('Old Mill').expect(201);
    expect(
      (await admin.agent.patch(`/api/location-options/${mill.id}`).set(XHR).send({ name: DEFAULT.toUpperCase() }).expect(409)).body,
    ).toEqual(taken);
    // A change of case of its own name is a rename, not a clash.
    await admin.agent.patch(`/api/location-options/${mill.id}`).set(XHR).send({ name: 'OLD MILL' }).expect(200);
    expect((await list()).filter((l) => l.name.toLowerCase() === DEFAULT.toLowerCase()).map((l) => l.name)).toEqual([DEFAULT]);
    expect((await list()).find((l) => l.id === mill.id)?.name).toBe('OLD MILL');
  });

  it('lets exactly one of several simultaneous creates of the same name through', async () => {
    const results = await Promise.all(['Canal Wharf', 'canal wharf', 'CANAL WHARF', 'Canal wharf'].map((n) => create(n)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await list()).filter((l) => l.name.toLowerCase() === 'canal wharf')).toHaveLength(1);
  });

  it('lets workers read the list but not change it, and anonymous callers do neither', async () => {
    const { body: loc } = await create('Read Only Hall').expect(201);
    expect((await list(worker)).some((l) => l.id === loc.id)).toBe(true);
    await worker.agent.post('/api/location-options').set(XHR).send({ name: 'Worker Made' }).expect(403);
    await worker.agent.patch(`/api/location-options/${loc.id}`).set(XHR).send({ isActive: false }).expect(403);
    await worker.agent.delete(`/api/location-options/${loc.id}`).set(XHR).expect(403);
    await request(t.url).get('/api/location-options').expect(401);
    const after = await list();
    expect(after.find((l) => l.id === loc.id)).toEqual({ ...loc, canChange: true });
    expect(after.some((l) => l.name === 'Worker Made')).toBe(false);
  });

  it('keeps one default location across restarts, and a deleted default stays deleted', async () => {
    const before = (await list()).filter((l) => l.name === DEFAULT);
    await t.restart();
    superadmin = await superadminOf(t);
    const after = (await superadmin.agent.get('/api/location-options').expect(200)).body as Option[];
    expect(after.filter((l) => l.name === DEFAULT)).toEqual(before);

    await superadmin.agent.delete(`/api/location-options/${before[0].id}`).set(XHR).expect(200);
    await t.restart();
    superadmin = await superadminOf(t);
    const names = ((await superadmin.agent.get('/api/location-options').expect(200)).body as Option[]).map((l) => l.name);
    expect(names).not.toContain(DEFAULT);
    const seeds = (await streamEvents(t, 'locations.location.created.v1')).filter((e) => e.data.name === DEFAULT);
    expect(seeds).toHaveLength(1);
  }, 120_000);
});

describe('replicas of the locations service starting together on a fresh database', () => {
  it('create the default location, and its event, exactly once', async () => {
    const db = await createTestDatabase();
    const id = uniqueId('r');
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      HEALTH_PORT: '0',
      DATABASE_URL: db.url,
      NATS_URL: testServers.natsUrl,
      EVENTS_STREAM: `LWS_${id.toUpperCase()}`,
      SUBJECT_PREFIX: `${id}.`,
      OTEL_SDK_DISABLED: 'true',
    };
    const replicas = await Promise.allSettled([1, 2, 3].map(() => startService(locationsService, { env })));
    const client = new Client({ connectionString: db.url });
    try {
      expect(replicas.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      await client.connect();
      const rows = await client.query(`select name, is_active from locations.location_options`);
      expect(rows.rows).toEqual([{ name: DEFAULT, is_active: true }]);
      const events = await client.query(`select payload from locations.outbox where subject = 'locations.location.created.v1'`);
      expect(events.rows).toHaveLength(1);
    } finally {
      await client.end();
      for (const r of replicas) if (r.status === 'fulfilled') await r.value.close();
      await db.drop();
      const nc = await connect({ servers: testServers.natsUrl });
      await (await nc.jetstreamManager()).streams.delete(env.EVENTS_STREAM).catch(() => undefined);
      await nc.close();
    }
  }, 120_000);
});

describe('location options in embedded mode (PGlite, in-process bus)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ embedded: true });
  }, 120_000);
  afterAll(() => t?.stop());

  it('seeds the default location once, lists, and refuses a duplicate on create and on rename', async () => {
    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    const first = (await agent.get('/api/location-options').expect(200)).body as Option[];
    expect(first).toEqual([
      { id: expect.any(Number), name: DEFAULT, isActive: true, createdAt: expect.stringMatching(ISO), canChange: true },
    ]);

    const taken = { message: 'A location with this name already exists', field: 'name' };
    await agent.post('/api/location-options').set(XHR).send({ name: 'the prospect building' }).expect(409, taken);
    const { body: yard } = await agent.post('/api/location-options').set(XHR).send({ name: 'Yard' }).expect(201);
    await agent.patch(`/api/location-options/${yard.id}`).set(XHR).send({ name: DEFAULT }).expect(409, taken);

    await t.restart();
    const again = request.agent(t.url);
    await again.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
    expect(((await again.get('/api/location-options').expect(200)).body as Option[]).map((l) => l.name)).toEqual([DEFAULT, 'Yard']);
  }, 120_000);
});
