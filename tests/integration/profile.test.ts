import request from 'supertest';
import { Client } from 'pg';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, listenToEvents, superadminOf, type Account } from './support/accounts';

/** Events travel outbox → relay → JetStream; on a busy two-core machine that can take a while. */
const EVENT_WAIT_MS = 30_000;

describe('profile, emergency contacts, settings and accounts (real PostgreSQL, NATS, Redis)', () => {
  let t: TestStack;
  let events: Awaited<ReturnType<typeof listenToEvents>>;
  let superadmin: Account;
  let admin: Account;
  let worker: Account;
  let other: Account;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '500' } });
    events = await listenToEvents(t);
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
    worker = await createAccount(t, admin.agent, 'worker');
    other = await createAccount(t, admin.agent, 'worker');
  }, 120_000);
  afterAll(async () => {
    await events?.close();
    await t?.stop();
  });

  const identityVersionOf = async (userId: number): Promise<number> => {
    const db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query('select version from identity.users where id = $1', [userId])).rows[0].version;
    } finally {
      await db.end();
    }
  };

  const relationsOf = async (a: Account, id = a.id) => (await a.agent.get(`/api/users/${id}/with-relations`).expect(200)).body;

  describe('PATCH /api/users/{id} (profile)', () => {
    it('changes name and phone, trimming and normalising, and announces the whole profile at a new version', async () => {
      const res = await worker.agent
        .patch(`/api/users/${worker.id}`)
        .set(XHR)
        .send({ name: '  Pat Carer ', phone: '07911 123456' })
        .expect(200);
      expect(res.body).toEqual({
        id: worker.id,
        username: worker.username,
        name: 'Pat Carer',
        role: 'worker',
        phone: '+447911123456',
        language: 'en',
      });

      await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ name: 'Pat Carer', phone: '447911123457' }).expect(200);
      const updates = await eventually(() => {
        const e = events.of('identity.user.updated.v1').filter((d) => d.userId === worker.id);
        return e.length >= 2 && e;
      }, EVENT_WAIT_MS);
      expect(updates).toEqual([
        {
          userId: worker.id,
          name: 'Pat Carer',
          role: 'worker',
          phone: '+447911123456',
          version: expect.any(Number),
          teamId: expect.any(Number),
          language: 'en',
        },
        {
          userId: worker.id,
          name: 'Pat Carer',
          role: 'worker',
          phone: '+447911123457',
          version: updates[0].version! + 1,
          teamId: updates[0].teamId,
          language: 'en',
        },
      ]);
    });

    it("sets the user's language, which they then sign in with and other services hear; one LWS does not speak is refused naming the field", async () => {
      const res = await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ language: 'cy' }).expect(200);
      expect(res.body.language).toBe('cy');
      expect((await worker.agent.get('/api/auth/me').expect(200)).body.language).toBe('cy');
      await eventually(
        () => events.of('identity.user.updated.v1').some((d) => d.userId === worker.id && d.language === 'cy'),
        EVENT_WAIT_MS,
      );
      // An admin sets it for their worker too.
      await admin.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ language: 'en' }).expect(200);
      expect((await relationsOf(worker)).language).toBe('en');

      for (const language of ['fr', 'CY', 7]) {
        const refused = await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ language }).expect(400);
        expect(refused.body).toMatchObject({ field: 'language', message: expect.stringMatching(/^Language must be one LWS speaks/) });
      }
      expect((await relationsOf(worker)).language).toBe('en');

      // Created in Welsh: the account speaks it from its first sign-in.
      const username = `cy${Math.random().toString(36).slice(2, 8)}`;
      await admin.agent
        .post('/api/users')
        .set(XHR)
        .send({ username, password: 'Secret1pass', name: 'Siân Gofal', phone: '+447911123777', role: 'worker', language: 'cy' })
        .expect(201);
      const login = await request(t.url).post('/api/auth/login').set(XHR).send({ username, password: 'Secret1pass' }).expect(200);
      expect(login.body.language).toBe('cy');
    });

    it.each([
      ['07911123458', '+447911123458'],
      ['447911123458', '+447911123458'],
      ['7911123459', '+447911123459'],
      ['+44 7911 123460', '+447911123460'],
    ])('normalises the phone %s to %s', async (phone, expected) => {
      const res = await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ phone }).expect(200);
      expect(res.body.phone).toBe(expected);
    });

    it.each([
      ['name "A"', { name: 'A' }, 'name', 'Name is too short'],
      ['a blank name', { name: '   ' }, 'name', 'Name is too short'],
      ['phone +4479', { phone: '+4479' }, 'phone', 'Phone number must include country code'],
      ['a French phone', { phone: '+33612345678' }, 'phone', 'Phone number must start with +44 (UK format)'],
      ['+44 and 9 digits', { phone: '+44791112345' }, 'phone', 'Phone number must be in format +44 followed by 10 digits'],
      ['a drama-range number', { phone: '+447700900123' }, 'phone', 'This is not a UK phone number in use: check the digits'],
      ['a range no operator uses', { phone: '+447911523456' }, 'phone', 'This is not a UK phone number in use: check the digits'],
      [
        '2001 characters of medical information',
        { medicalInfo: 'x'.repeat(2001) },
        'medicalInfo',
        'Medical information must be at most 2000 characters',
      ],
    ])('rejects %s naming %s with the spec message, writing nothing', async (_label, body, field, message) => {
      const before = await relationsOf(worker);
      const res = await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send(body).expect(400);
      expect(res.body).toEqual({ message, field });
      expect(await relationsOf(worker)).toEqual(before);
    });

    it('refuses fields a profile edit cannot change, and an empty edit', async () => {
      expect((await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ role: 'admin' }).expect(400)).body.message).toBe(
        'Unknown field: role',
      );
      expect((await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({}).expect(400)).body.message).toBe('Nothing to update');
      expect((await relationsOf(worker)).role).toBe('worker');
    });

    it('refuses a body mixing a PIN change with profile fields', async () => {
      const res = await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ name: 'Pat', pinCode: '4821' }).expect(400);
      expect(res.body).toEqual({ message: 'A PIN change cannot be combined with other changes', field: 'pinCode' });
    });

    it('stores medical information (snake_case accepted), keeps it out of events, and clears it', async () => {
      const res = await worker.agent
        .patch(`/api/users/${worker.id}`)
        .set(XHR)
        .send({ medical_info: 'Asthma; inhaler in left pocket' })
        .expect(200);
      expect(res.body.medicalInfo).toBe('Asthma; inhaler in left pocket');
      expect((await relationsOf(worker)).medicalInfo).toBe('Asthma; inhaler in left pocket');
      // The event says the user changed (identity's new version of it), not what the medical information reads.
      const version = await identityVersionOf(worker.id);
      await eventually(
        () => events.of('identity.user.updated.v1').some((d) => d.userId === worker.id && d.version === version),
        EVENT_WAIT_MS,
      );
      expect(JSON.stringify(events.seen)).not.toContain('inhaler');

      const cleared = await worker.agent.patch(`/api/users/${worker.id}`).set(XHR).send({ medicalInfo: '' }).expect(200);
      expect(cleared.body).not.toHaveProperty('medicalInfo');
    });

    it('applies the access rule: a worker edits only itself, an admin edits workers but not admins', async () => {
      await worker.agent.patch(`/api/users/${other.id}`).set(XHR).send({ name: 'Hijacked' }).expect(403);
      await admin.agent.patch(`/api/users/${other.id}`).set(XHR).send({ name: 'Other Carer' }).expect(200);
      await admin.agent.patch(`/api/users/${superadmin.id}`).set(XHR).send({ name: 'Hijacked' }).expect(403);
      await superadmin.agent.patch(`/api/users/${admin.id}`).set(XHR).send({ name: 'Admin Person' }).expect(200);
      expect((await relationsOf(superadmin, other.id)).name).toBe('Other Carer');
      const bad = await superadmin.agent.patch('/api/users/0').set(XHR).send({ name: 'Nobody' }).expect(400);
      expect(bad.body).toEqual({ message: 'Invalid user ID', field: 'id' });
      await superadmin.agent.patch('/api/users/999999').set(XHR).send({ name: 'Nobody' }).expect(404);
    });
  });

  describe('emergency contacts', () => {
    const contact = { name: 'Sam Carer', phone: '07400 654321', relation: 'Partner' };

    it('adds, lists, edits and deletes a contact, announcing each change with what escalation needs', async () => {
      const created = await worker.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: worker.id, ...contact })
        .expect(201);
      expect(created.body).toEqual({
        id: expect.any(Number),
        userId: worker.id,
        name: 'Sam Carer',
        phone: '+447400654321',
        relation: 'Partner',
      });
      const id = created.body.id as number;

      const list = await worker.agent.get(`/api/users/${worker.id}/emergency-contacts`).expect(200);
      expect(list.body).toEqual([created.body]);

      const edited = await worker.agent
        .patch(`/api/emergency-contacts/${id}`)
        .set(XHR)
        .send({ userId: worker.id, relation: 'Spouse' })
        .expect(200);
      expect(edited.body).toEqual({ ...created.body, relation: 'Spouse' });

      await worker.agent.delete(`/api/emergency-contacts/${id}`).set(XHR).expect(200, { ok: true });
      expect((await worker.agent.get(`/api/users/${worker.id}/emergency-contacts`).expect(200)).body).toEqual([]);
      await worker.agent.delete(`/api/emergency-contacts/${id}`).set(XHR).expect(404, { message: 'Contact not found', field: 'id' });

      const changes = await eventually(() => {
        const e = events.of('identity.contact.changed.v1').filter((d) => d.contactId === id);
        return e.length >= 3 && e;
      }, EVENT_WAIT_MS);
      const version = changes[0].version!;
      expect(changes).toEqual([
        { userId: worker.id, contactId: id, change: 'created', name: 'Sam Carer', phone: '+447400654321', relation: 'Partner', version },
        {
          userId: worker.id,
          contactId: id,
          change: 'updated',
          name: 'Sam Carer',
          phone: '+447400654321',
          relation: 'Spouse',
          version: version + 1,
        },
        { userId: worker.id, contactId: id, change: 'deleted', version: version + 2 },
      ]);
    });

    it.each([
      [{ name: 'S' }, 'name', 'Name is too short'],
      [{ phone: '+4479' }, 'phone', 'Phone number must include country code'],
      [{ phone: '+33612345678' }, 'phone', 'Phone number must start with +44 (UK format)'],
      [{ phone: '+44791165432' }, 'phone', 'Phone number must be in format +44 followed by 10 digits'],
      [{ relation: '' }, 'relation', 'Relation is required'],
      [{ relation: undefined }, 'relation', 'Relation is required'],
      [{ userId: 'me' }, 'userId', 'Invalid user ID'],
    ])('rejects a new contact with %p naming %s, writing nothing', async (override, field, message) => {
      const res = await worker.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: worker.id, ...contact, ...override })
        .expect(400);
      expect(res.body).toEqual({ message, field });
      expect((await worker.agent.get(`/api/users/${worker.id}/emergency-contacts`).expect(200)).body).toEqual([]);
    });

    it('rejects a bad edit with the same messages, leaving the contact as it was', async () => {
      const { body: c } = await worker.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: worker.id, ...contact })
        .expect(201);
      for (const [body, message] of [
        [{ phone: '+33612345678' }, 'Phone number must start with +44 (UK format)'],
        [{ relation: ' ' }, 'Relation is required'],
        [{ name: 'S' }, 'Name is too short'],
      ] as const) {
        expect((await worker.agent.patch(`/api/emergency-contacts/${c.id}`).set(XHR).send(body).expect(400)).body.message).toBe(message);
      }
      const moved = await admin.agent
        .patch(`/api/emergency-contacts/${c.id}`)
        .set(XHR)
        .send({ userId: other.id, name: 'Moved' })
        .expect(400);
      expect(moved.body).toEqual({ message: 'A contact cannot be moved to another user', field: 'userId' });
      expect((await worker.agent.get(`/api/users/${worker.id}/emergency-contacts`).expect(200)).body).toEqual([c]);
      await worker.agent.delete(`/api/emergency-contacts/${c.id}`).set(XHR).expect(200);
    });

    it("hides other people's contacts (404) and refuses adding to someone else (403), while admins manage workers' contacts", async () => {
      const { body: c } = await other.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: other.id, ...contact })
        .expect(201);
      await worker.agent
        .patch(`/api/emergency-contacts/${c.id}`)
        .set(XHR)
        .send({ name: 'Hijacked' })
        .expect(404, { message: 'Contact not found', field: 'id' });
      await worker.agent.delete(`/api/emergency-contacts/${c.id}`).set(XHR).expect(404);
      await worker.agent.get(`/api/users/${other.id}/emergency-contacts`).expect(403);
      await worker.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: other.id, ...contact })
        .expect(403);

      await admin.agent.patch(`/api/emergency-contacts/${c.id}`).set(XHR).send({ name: 'Sam Other' }).expect(200);
      const { body: adminsContact } = await admin.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: admin.id, ...contact })
        .expect(201);
      const peer = await createAccount(t, superadmin.agent, 'admin', 'peer');
      await peer.agent.patch(`/api/emergency-contacts/${adminsContact.id}`).set(XHR).send({ name: 'Hijacked' }).expect(404);
      await superadmin.agent.patch(`/api/emergency-contacts/${adminsContact.id}`).set(XHR).send({ name: 'Sam Admin' }).expect(200);
    });
  });

  describe('settings', () => {
    it('PATCH saves settings (numeric string interval, no secondary → null) and announces checkInInterval', async () => {
      const res = await worker.agent
        .patch(`/api/users/${worker.id}/settings`)
        .set(XHR)
        .send({ primaryContact: '+447911111222', checkInInterval: '120' })
        .expect(200);
      expect(res.body).toEqual({ userId: worker.id, primaryContact: '+447911111222', secondaryContact: null, checkInInterval: 120 });
      const changed = await eventually(() => events.of('identity.settings.changed.v1').find((d) => d.userId === worker.id), EVENT_WAIT_MS);
      expect(changed).toEqual({ userId: worker.id, checkInInterval: 120, primaryContact: '+447911111222', version: expect.any(Number) });
    });

    it("POST /api/settings upserts, defaulting the interval to the one that applies (the team's default, 60 here); snake_case accepted", async () => {
      const res = await admin.agent
        .post('/api/settings')
        .set(XHR)
        .send({ user_id: other.id, primary_contact: '+447911111333', secondary_contact: '+447911111444' })
        .expect(200);
      expect(res.body).toEqual({
        userId: other.id,
        primaryContact: '+447911111333',
        secondaryContact: '+447911111444',
        checkInInterval: 60,
      });
      const again = await other.agent
        .post('/api/settings')
        .set(XHR)
        .send({ userId: other.id, primaryContact: '+447911111333', secondaryContact: null, checkInInterval: 30 })
        .expect(200);
      expect(again.body).toEqual({ userId: other.id, primaryContact: '+447911111333', secondaryContact: null, checkInInterval: 30 });
      expect((await relationsOf(other)).settings).toEqual(again.body);
      await eventually(
        () => events.of('identity.settings.changed.v1').some((d) => d.userId === other.id && d.checkInInterval === 30),
        EVENT_WAIT_MS,
      );
    });

    it.each([
      [{ primaryContact: '+4479111' }, 'primaryContact', 'Phone number is too short'],
      [{ primaryContact: undefined }, 'primaryContact', 'Phone number is too short'],
      [{ secondaryContact: '12345' }, 'secondaryContact', 'Phone number is too short'],
      [{ checkInInterval: 45 }, 'checkInInterval', 'Check-in interval must be 30, 50, 60, 120 or 240 minutes'],
      [{ checkInInterval: 'hourly' }, 'checkInInterval', 'Check-in interval must be 30, 50, 60, 120 or 240 minutes'],
    ])('rejects %p naming %s, writing nothing', async (override, field, message) => {
      const before = (await relationsOf(worker)).settings;
      const body = { primaryContact: '+447911999888', checkInInterval: 240, ...override };
      const res = await worker.agent.patch(`/api/users/${worker.id}/settings`).set(XHR).send(body).expect(400);
      expect(res.body).toEqual({ message, field });
      const viaPost = await worker.agent
        .post('/api/settings')
        .set(XHR)
        .send({ userId: worker.id, ...body })
        .expect(400);
      expect(viaPost.body).toEqual({ message, field });
      expect((await relationsOf(worker)).settings).toEqual(before);
    });

    it("refuses a worker's settings for someone else", async () => {
      await worker.agent.patch(`/api/users/${other.id}/settings`).set(XHR).send({ primaryContact: '+447911111555' }).expect(403);
      await worker.agent.post('/api/settings').set(XHR).send({ userId: other.id, primaryContact: '+447911111555' }).expect(403);
    });
  });

  describe('account views', () => {
    it('GET /api/users/{id}/with-relations returns the user, PIN status, settings, contacts and no check-in yet', async () => {
      const { body: c } = await worker.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: worker.id, name: 'Jo Relative', phone: '+447911222333', relation: 'Sister' })
        .expect(201);
      const body = await relationsOf(worker);
      expect(body).toEqual({
        id: worker.id,
        username: worker.username,
        name: 'Pat Carer',
        role: 'worker',
        phone: expect.stringMatching(/^\+44\d{10}$/),
        language: 'en',
        pinSet: expect.any(Boolean),
        settings: { userId: worker.id, primaryContact: '+447911111222', secondaryContact: null, checkInInterval: 120 },
        // The interval that applies: the worker's own here.
        checkInInterval: 120,
        emergencyContacts: [c],
        onShift: false,
        location: 'Off Shift',
        shiftStartTime: null,
        latestCheckIn: null,
        nextCheckInTime: null,
        visit: null,
        // A single-team deployment: "Default", monitored by every admin, with no visit types yet.
        team: {
          id: expect.any(Number),
          name: 'Default',
          monitors: expect.arrayContaining(['Admin Person']),
          checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 50, 60, 120, 240] },
          visitTypes: [],
        },
      });
      expect(JSON.stringify(body)).not.toMatch(/hash|password/i);
      await worker.agent.get(`/api/users/${other.id}/with-relations`).expect(403);
      await request(t.url).get(`/api/users/${worker.id}/with-relations`).expect(401);
    });

    it('GET /api/worker-accounts: admins see workers with contacts; the superadmin also sees admins and credential status; never a hash', async () => {
      const asAdmin = (await admin.agent.get('/api/worker-accounts').expect(200)).body as Record<string, unknown>[];
      expect(asAdmin.every((a) => a.role === 'worker')).toBe(true);
      const row = asAdmin.find((a) => a.id === worker.id)!;
      expect(row).toEqual({
        id: worker.id,
        username: worker.username,
        name: 'Pat Carer',
        role: 'worker',
        phone: expect.any(String),
        language: 'en',
        emergencyContacts: [{ id: expect.any(Number), name: 'Jo Relative', phone: '+447911222333', relation: 'Sister' }],
        onShift: false,
        location: 'Off Shift',
        shiftStartTime: null,
        latestCheckIn: null,
        nextCheckInTime: null,
        visit: null,
        // The worker's team ("Default"): the dashboards show it and filter by it.
        teamId: expect.any(Number),
      });

      const asSuper = (await superadmin.agent.get('/api/worker-accounts').expect(200)).body as Record<string, unknown>[];
      expect(new Set(asSuper.map((a) => a.role))).toEqual(new Set(['worker', 'admin']));
      expect(asSuper.find((a) => a.id === admin.id)).toMatchObject({ role: 'admin', passwordSet: true, pinSet: expect.any(Boolean) });
      expect(asSuper.find((a) => a.id === worker.id)).toMatchObject({
        passwordSet: true,
        pinSet: expect.any(Boolean),
        emergencyContacts: row.emergencyContacts,
      });

      for (const list of [asAdmin, asSuper]) expect(JSON.stringify(list)).not.toMatch(/hash|"password"|pinCode|"pin"/i);
      await worker.agent.get('/api/worker-accounts').expect(403);
    });

    it('GET /api/data/workers lists workers only, for admins', async () => {
      const res = await admin.agent.get('/api/data/workers').expect(200);
      const ids = (res.body as { id: number; role: string }[]).map((u) => u.id);
      expect(ids).toEqual(expect.arrayContaining([worker.id, other.id]));
      expect((res.body as { role: string }[]).every((u) => u.role === 'worker')).toBe(true);
      await worker.agent.get('/api/data/workers').expect(403);
    });
  });

  describe('DELETE /api/users/{id}', () => {
    it('an admin deletes a worker: sessions end, contacts and settings go, and identity.user.deleted.v1 is published', async () => {
      const doomed = await createAccount(t, admin.agent, 'worker', 'doomed');
      await doomed.agent
        .post('/api/emergency-contacts')
        .set(XHR)
        .send({ userId: doomed.id, name: 'Al Friend', phone: '+447400333444', relation: 'Friend' })
        .expect(201);
      await doomed.agent.post('/api/settings').set(XHR).send({ userId: doomed.id, primaryContact: '+447911333555' }).expect(200);
      await doomed.agent.get('/api/auth/me').expect(200);

      await admin.agent.delete(`/api/users/${doomed.id}`).set(XHR).expect(200, { ok: true });

      await doomed.agent.get(`/api/users/${doomed.id}/with-relations`).expect(401);
      await admin.agent.get(`/api/users/${doomed.id}/emergency-contacts`).expect(404);
      await request(t.url).post('/api/auth/login').set(XHR).send({ username: doomed.username, password: doomed.password }).expect(401);
      const db = new Client({ connectionString: t.env.DATABASE_URL });
      await db.connect();
      try {
        const contacts = await db.query('select count(*)::int as n from identity.emergency_contacts where user_id = $1', [doomed.id]);
        const settings = await db.query('select count(*)::int as n from identity.user_settings where user_id = $1', [doomed.id]);
        expect([contacts.rows[0].n, settings.rows[0].n]).toEqual([0, 0]);
      } finally {
        await db.end();
      }
      const deleted = await eventually(() => events.of('identity.user.deleted.v1').find((d) => d.userId === doomed.id), EVENT_WAIT_MS);
      expect(deleted).toEqual({ userId: doomed.id, deletedBy: admin.id, version: expect.any(Number) });
    });

    it('admins delete only workers; nobody deletes themselves; workers delete nobody', async () => {
      const peer = await createAccount(t, superadmin.agent, 'admin', 'peer');
      await admin.agent.delete(`/api/users/${peer.id}`).set(XHR).expect(403);
      await admin.agent.delete(`/api/users/${superadmin.id}`).set(XHR).expect(403);
      await worker.agent.delete(`/api/users/${other.id}`).set(XHR).expect(403);
      await worker.agent.delete(`/api/users/${worker.id}`).set(XHR).expect(403);
      const self = await admin.agent.delete(`/api/users/${admin.id}`).set(XHR).expect(400);
      expect(self.body).toEqual({ message: 'You cannot delete your own account', field: 'id' });
      const superSelf = await superadmin.agent.delete(`/api/users/${superadmin.id}`).set(XHR).expect(400);
      expect(superSelf.body).toEqual({ message: 'You cannot delete your own account', field: 'id' });
      await admin.agent.delete('/api/users/999999').set(XHR).expect(404);
      await request(t.url).delete(`/api/users/${other.id}`).set(XHR).expect(401);

      await superadmin.agent.delete(`/api/users/${peer.id}`).set(XHR).expect(200);
      await peer.agent.get('/api/auth/me').expect(401);
      await other.agent.get('/api/auth/me').expect(200);
    });
  });
});
