import request from 'supertest';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { connect } from 'nats';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { streamEvents } from './support/stream-events';

/**
 * The activity log end to end on real PostgreSQL, NATS and Redis: domain events become entries in
 * the audit service, which the gateway serves at /api/activity-logs. Escalation's and
 * notifications' events are published onto the stream as their producers would (contract-valid
 * envelopes), so the log is tested against the contracts.
 */

const EVENT_WAIT_MS = 30_000;

interface Worker extends Account {
  pin: string;
}

interface Entry {
  id: number;
  userId: number | null;
  username: string;
  type: string;
  label: string;
  timestamp: string;
  details: string;
  location: string | null;
}

describe('activity log (real PostgreSQL, NATS, Redis)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let depot: string;
  let nextPin = 2000;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    admin = await newAccount('admin', superadmin.agent);
    depot = `Depot ${randomUUID().slice(0, 8)}`;
    await admin.agent.post('/api/location-options').set(XHR).send({ name: depot, isActive: true }).expect(201);
  }, 120_000);
  afterAll(() => t?.stop());

  async function newAccount(role: 'worker' | 'admin', creator: request.Agent): Promise<Worker> {
    const username = `${role}${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Secret1pass';
    const pin = String(nextPin++);
    const res = await creator
      .post('/api/users')
      .set(XHR)
      .send({ username, password, name: `${role} ${username}`, phone: nextMobile(), role, pinCode: pin })
      .expect(201);
    return { id: res.body.user.id, username, password, role, agent: await signIn(t, username, password), pin };
  }

  const newWorker = () => newAccount('worker', admin.agent);

  /** Starts a shift at the depot, waiting for shifts to have heard of the location. */
  async function startShift(w: Worker): Promise<void> {
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
  }

  const logOf = async (agent: request.Agent, query = ''): Promise<Entry[]> =>
    (await agent.get(`/api/activity-logs${query}`).expect(200)).body;

  /** The user's entries once `ready` holds for them. */
  async function entriesOf(userId: number, ready: (entries: Entry[]) => boolean): Promise<Entry[]> {
    let last: Entry[] = [];
    try {
      return await eventually(
        async () => {
          last = await logOf(admin.agent, `?userId=${userId}`);
          return ready(last) ? last : undefined;
        },
        EVENT_WAIT_MS,
        100,
      );
    } catch (err) {
      throw new Error(`${String(err)}; entries were ${JSON.stringify(last, null, 1)}`);
    }
  }

  const hasDetails = (details: string) => (entries: Entry[]) => entries.some((e) => e.details === details);

  /** Publishes an envelope as a producer would, without a msgID, so a repeat is stored and delivered again. */
  async function publish(subject: string, data: object, id = randomUUID(), producer = subject.split('.')[0]): Promise<string> {
    const nc = await connect({ servers: t.env.NATS_URL });
    try {
      const envelope = { id, subject, occurredAt: new Date().toISOString(), producer, data };
      await nc.jetstream().publish(`${t.env.SUBJECT_PREFIX}${subject}`, JSON.stringify(envelope));
    } finally {
      await nc.close();
    }
    return id;
  }

  it("a superadmin starts a worker's shift (the Test Account dashboard): the worker is on shift and the log names who started it", async () => {
    const w = await newWorker();
    let res!: request.Response;
    await eventually(
      async () => {
        res = await superadmin.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: depot });
        return res.status === 200;
      },
      EVENT_WAIT_MS,
      100,
    );
    expect(res.body).toMatchObject({ id: w.id, onShift: true, location: depot });
    await entriesOf(w.id, hasDetails(`Started shift at ${depot} (started by ${superadmin.username})`));
    // Never an admin's shift, and an admin cannot start a worker's.
    await superadmin.agent.post(`/api/users/${admin.id}/start-shift`).set(XHR).send({ location: depot }).expect(403);
    const other = await newWorker();
    await admin.agent.post(`/api/users/${other.id}/start-shift`).set(XHR).send({ location: depot }).expect(403);
  });

  it('writes what a worker does on shift, with the spec texts, labels and the username', async () => {
    const w = await newWorker();
    await startShift(w);
    const [started] = await entriesOf(w.id, hasDetails(`Started shift at ${depot}`));
    expect(started).toEqual({
      id: expect.any(Number),
      userId: w.id,
      username: w.username,
      type: 'start_shift',
      label: 'Start Shift',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      details: `Started shift at ${depot}`,
      location: depot,
    });

    await w.agent.post('/api/check-ins').set(XHR).send({ userId: w.id, location: depot, pin: w.pin }).expect(201);
    await w.agent.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.pin }).expect(200);
    const entries = await entriesOf(w.id, hasDetails(`Ended shift at ${depot}`));
    expect(entries.map((e) => [e.type, e.label])).toEqual([
      ['end_shift', 'End Shift'],
      ['check_in', 'Check In'],
      ['start_shift', 'Start Shift'],
    ]);
    expect(entries[1].details).toMatch(new RegExp(`^Checked in at ${depot}; next check-in due at \\d\\d:\\d\\d$`));

    // Every entry is announced for the live stream.
    const announced = await eventually(async () => {
      const events = (await streamEvents(t, 'audit.entry.recorded.v1')).filter((e) => e.data.userId === w.id);
      return events.length === 3 ? events : undefined;
    }, EVENT_WAIT_MS);
    expect(announced.map((e) => e.data)).toContainEqual({
      entryId: started.id,
      userId: w.id,
      username: w.username,
      type: 'start_shift',
      label: 'Start Shift',
      details: `Started shift at ${depot}`,
      location: depot,
      at: started.timestamp,
    });
  });

  it('says who forced a clock-out', async () => {
    const w = await newWorker();
    await startShift(w);
    await superadmin.agent.post(`/api/users/${w.id}/force-clock-out`).set(XHR).expect(200);
    await entriesOf(w.id, hasDetails(`Ended shift at ${depot} (clocked out by ${superadmin.username})`));
  });

  it('logs an event delivered twice once', async () => {
    const w = await newWorker();
    const opened = { alarmId: randomUUID(), userId: w.id, kind: 'emergency', openedAt: new Date().toISOString(), location: depot };
    const id = randomUUID();
    await publish('escalation.alarm.opened.v1', opened, id);
    await publish('escalation.alarm.opened.v1', opened, id);
    // Events of one subject are handled in order: once this one is logged, both copies were handled.
    await publish('escalation.alarm.opened.v1', { ...opened, alarmId: randomUUID(), kind: 'missed_check_in' });
    const entries = await entriesOf(w.id, (es) => es.some((e) => e.type === 'missed_check_in'));
    expect(entries.map((e) => e.details)).toEqual([
      `Missed check-in at ${depot}; escalation started`,
      `Emergency alarm opened at ${depot}; escalation started`,
    ]);
  });

  it('turns escalation and notification events into entries of the spec types', async () => {
    const w = await newWorker();
    const alarmId = randomUUID();
    const messageId = randomUUID();
    const now = () => new Date().toISOString();
    await publish('escalation.alarm.opened.v1', { alarmId, userId: w.id, kind: 'missed_check_in', openedAt: now(), location: depot });
    await publish('escalation.alarm.escalated.v1', {
      alarmId,
      userId: w.id,
      step: 0,
      action: 'notify_worker',
      at: now(),
      details: 'SMS to the worker',
    });
    const sms = { messageId, userId: w.id, channel: 'sms', to: '+447911123456', purpose: 'missed_check_in', alarmId };
    await publish('notifications.message.sent.v1', { ...sms, status: 'queued' });
    await publish('notifications.message.sent.v1', { ...sms, status: 'delivered' });
    await publish('notifications.message.sent.v1', {
      ...sms,
      status: 'failed',
      errorCode: 30003,
      errorMessage: 'Unreachable destination handset',
    });
    await publish('notifications.call.completed.v1', {
      messageId: randomUUID(),
      alarmId,
      userId: w.id,
      to: '+447911123456',
      callSid: 'CA1',
      outcome: 'no_answer',
      at: now(),
    });
    await publish('escalation.alarm.acknowledged.v1', { alarmId, userId: w.id, byUserId: admin.id, at: now() });
    await publish('escalation.alarm.resolved.v1', {
      alarmId,
      userId: w.id,
      byUserId: admin.id,
      at: now(),
      verdict: 'false_alarm',
      reason: 'no_signal',
      note: 'Phone was on silent',
    });
    await publish('escalation.system_alert.raised.v1', {
      alertId: randomUUID(),
      userId: w.id,
      code: 'deadline_repaired',
      details: 'Deadline repaired by the auditor',
      at: now(),
    });

    const entries = await entriesOf(w.id, (es) => es.length >= 8);
    const shown = entries.map((e) => `${e.label}: ${e.details}`).sort();
    expect(shown).toEqual(
      [
        `Missed Check-In: Missed check-in at ${depot}; escalation started`,
        'System Alert: Escalation step 1, alerting the worker: SMS to the worker',
        'SMS Sent: SMS to +447911123456 (missed check-in alert): queued',
        'SMS Sent: SMS to +447911123456 (missed check-in alert) failed: failed (error 30003: Unreachable destination handset)',
        'Call Made: Called +447911123456: no answer',
        `System Alert: Alarm acknowledged by ${admin.username}`,
        `System Alert: Alarm resolved by ${admin.username} as false alarm (no signal). Note: Phone was on silent`,
        'System Alert: Deadline repaired by the auditor',
      ].sort(),
    );
  });

  it("logs a burst of provider updates (taken in batches) as it logs them one by one: each message's first update and first failure, once", async () => {
    const w = await newWorker();
    const messages = Array.from({ length: 12 }, (_, i) => ({ messageId: randomUUID(), to: `+4479111${String(i).padStart(5, '0')}` }));
    const sms = (m: (typeof messages)[number], status: string, extra: object = {}) => ({
      messageId: m.messageId,
      userId: w.id,
      channel: 'sms',
      to: m.to,
      purpose: 'missed_check_in',
      status,
      ...extra,
    });
    // One connection, every publish in flight at once: audit's consumer takes them in a few pulls.
    const nc = await connect({ servers: t.env.NATS_URL });
    try {
      const js = nc.jetstream();
      const updates = messages.flatMap((m) => [
        sms(m, 'queued'),
        sms(m, 'delivered'),
        sms(m, 'failed', { errorCode: 30003, errorMessage: 'Unreachable' }),
        sms(m, 'undelivered'),
      ]);
      await Promise.all(
        updates.map((data) =>
          js.publish(
            `${t.env.SUBJECT_PREFIX}notifications.message.sent.v1`,
            JSON.stringify({
              id: randomUUID(),
              subject: 'notifications.message.sent.v1',
              occurredAt: new Date().toISOString(),
              producer: 'notifications',
              data,
            }),
          ),
        ),
      );
    } finally {
      await nc.close();
    }

    // Every update taken (nothing pending on audit's consumer), so a repeat would show.
    const metric = async (name: string, labels: string[]) =>
      (await (await fetch(t.stack.metricsUrl)).text())
        .split('\n')
        .filter((l) => l.startsWith(`${name}{`) && labels.every((x) => l.includes(x)))
        .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    const consumer = 'consumer="audit-notifications"';
    await eventually(async () => (await metric('lws_consumer_pending_events', [consumer])) === 0, EVENT_WAIT_MS, 100);
    await entriesOf(w.id, (es) => es.length >= 24);
    const shown = (await logOf(admin.agent, `?userId=${w.id}`)).map((e) => e.details).sort();
    expect(shown).toEqual(
      messages
        .flatMap((m) => [
          `SMS to ${m.to} (missed check-in alert): queued`,
          `SMS to ${m.to} (missed check-in alert) failed: failed (error 30003: Unreachable)`,
        ])
        .sort(),
    );
    expect(await metric('lws_consumer_batches_total', [consumer, 'outcome="committed"'])).toBeGreaterThan(0);
    expect(await metric('lws_consumer_batches_total', [consumer, 'outcome="fallback"'])).toBe(0);
  });

  it('pages newest first with X-Next-Cursor, and filters by user', async () => {
    const w = await newWorker();
    const other = await newWorker();
    for (let i = 1; i <= 5; i++) {
      await w.agent
        .post('/api/activity-logs')
        .set(XHR)
        .send({ userId: w.id, username: w.username, type: 'check_in', details: `Entry ${i}` })
        .expect(201);
    }
    await other.agent.post('/api/activity-logs').set(XHR).send({ userId: other.id, type: 'check_in', details: 'Someone else' }).expect(201);

    const pages: Entry[][] = [];
    let cursor: string | undefined;
    do {
      const res = await admin.agent
        .get(`/api/activity-logs?userId=${w.id}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        .expect(200);
      pages.push(res.body);
      cursor = res.headers['x-next-cursor'];
    } while (cursor);
    expect(pages.map((p) => p.map((e) => e.details))).toEqual([['Entry 5', 'Entry 4'], ['Entry 3', 'Entry 2'], ['Entry 1']]);
    const ids = pages.flat().map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const everyone = await logOf(admin.agent, '?limit=200');
    expect(everyone.some((e) => e.userId === other.id) && everyone.some((e) => e.userId === w.id)).toBe(true);
    for (let i = 1; i < everyone.length; i++) expect(everyone[i - 1].timestamp >= everyone[i].timestamp).toBe(true);

    const bad = await admin.agent.get('/api/activity-logs?cursor=not-a-cursor').expect(400);
    expect(bad.body).toEqual({ message: 'Invalid cursor', field: 'cursor' });
    expect((await admin.agent.get('/api/activity-logs?limit=500').expect(400)).body.field).toBe('limit');
  });

  it("shows a worker only their own entries, and refuses another user's", async () => {
    const w = await newWorker();
    const other = await newWorker();
    await other.agent
      .post('/api/activity-logs')
      .set(XHR)
      .send({ userId: other.id, type: 'check_in', details: 'Not for your eyes' })
      .expect(201);
    await w.agent.post('/api/activity-logs').set(XHR).send({ userId: w.id, type: 'check_in', details: 'Mine' }).expect(201);

    await w.agent.get(`/api/activity-logs?userId=${other.id}`).expect(403);
    const own = await logOf(w.agent);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((e) => e.userId === w.id)).toBe(true);
    expect(await logOf(w.agent, `?userId=${w.id}`)).toEqual(own);
    await request(t.url).get('/api/activity-logs').expect(401);
  });

  it('validates client entries, writes them under the real username, and lets a worker write only its own', async () => {
    const w = await newWorker();
    const other = await newWorker();
    const post = (agent: request.Agent, body: object) => agent.post('/api/activity-logs').set(XHR).send(body);

    expect((await post(w.agent, { userId: w.id, type: 'shift_started', details: 'x' }).expect(400)).body.field).toBe('type');
    expect((await post(w.agent, { userId: w.id, type: 'check_in', details: '  ' }).expect(400)).body).toEqual({
      message: 'details is required',
      field: 'details',
    });
    expect((await post(w.agent, { userId: w.id, type: 'check_in', details: 'x'.repeat(1001) }).expect(400)).body.field).toBe('details');
    expect((await post(w.agent, { userId: 'me', type: 'check_in', details: 'x' }).expect(400)).body.field).toBe('userId');
    await post(w.agent, { userId: other.id, type: 'check_in', details: 'Pretending' }).expect(403);
    expect((await post(w.agent, { userId: w.id, type: 'call_made', details: 'Called for help' }).expect(403)).body.field).toBe('type');
    await w.agent.post('/api/activity-logs').send({ userId: w.id, type: 'check_in', details: 'No CSRF header' }).expect(403);

    const res = await post(w.agent, {
      user_id: w.id,
      username: admin.username,
      type: 'start_shift',
      details: `Started shift at ${depot}`,
      location: depot,
    }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      userId: w.id,
      username: w.username,
      type: 'start_shift',
      label: 'Start Shift',
      timestamp: expect.any(String),
      details: `Started shift at ${depot}`,
      location: depot,
    });
    const byAdmin = await post(admin.agent, { userId: w.id, type: 'system_alert', details: 'Spoke to the worker by phone' }).expect(201);
    expect(byAdmin.body).toMatchObject({ userId: w.id, username: w.username, label: 'System Alert', location: null });

    const entries = await logOf(admin.agent, `?userId=${w.id}`);
    expect(entries.map((e) => e.details)).toEqual(['Spoke to the worker by phone', `Started shift at ${depot}`]);
  });

  it("purges a deleted user's entries, and writes nothing about them afterwards", async () => {
    const w = await newWorker();
    await startShift(w);
    await entriesOf(w.id, hasDetails(`Started shift at ${depot}`));
    await admin.agent.delete(`/api/users/${w.id}`).set(XHR).expect(200);

    const deletion = await eventually(async () => {
      const mine = await logOf(admin.agent, `?userId=${admin.id}`);
      return mine.find((e) => e.details.startsWith('Deleted the account of') && e.details.includes(`(${w.username})`));
    }, EVENT_WAIT_MS);
    expect(deletion).toMatchObject({ type: 'system_alert', username: admin.username });
    await eventually(async () => (await logOf(admin.agent, `?userId=${w.id}`)).length === 0, EVENT_WAIT_MS);

    // A late event about the deleted user, then one about someone else on the same subject.
    const witness = await newWorker();
    const started = (userId: number) => ({
      shiftId: randomUUID(),
      userId,
      location: depot,
      startedAt: new Date().toISOString(),
      nextCheckInAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    await publish('shifts.shift.started.v1', started(w.id));
    await publish('shifts.shift.started.v1', started(witness.id));
    await entriesOf(witness.id, hasDetails(`Started shift at ${depot}`));
    expect(await logOf(admin.agent, `?userId=${w.id}`)).toEqual([]);
    const client = await admin.agent.post('/api/activity-logs').set(XHR).send({ userId: w.id, type: 'check_in', details: 'Too late' });
    expect(client.status).toBe(404);
  });

  it('writes a system_alert when five wrong PINs lock PIN actions', async () => {
    const w = await newWorker();
    for (let i = 0; i < 5; i++) await w.agent.post(`/api/users/${w.id}/verify-pin`).set(XHR).send({ pin: '9999' });
    const [locked] = await entriesOf(w.id, (es) => es.some((e) => e.type === 'system_alert'));
    expect(locked).toMatchObject({ userId: w.id, username: w.username, type: 'system_alert', label: 'System Alert' });
    expect(locked.details).toMatch(/^PIN locked after 5 wrong PINs within 15 minutes; PIN actions are refused until \d\d:\d\d$/);
  });

  it('keeps every entry across a restart, and logs nothing twice after it', async () => {
    const w = await newWorker();
    await startShift(w);
    const before = await entriesOf(w.id, hasDetails(`Started shift at ${depot}`));
    const everyoneBefore = await logOf(admin.agent, '?limit=200');

    await t.restart();
    admin = { ...admin, agent: await signIn(t, admin.username, admin.password) };
    const again = await signIn(t, w.username, w.password);

    expect(await logOf(admin.agent, `?userId=${w.id}`)).toEqual(before);
    await again.post(`/api/users/${w.id}/end-shift`).set(XHR).send({ pin: w.pin }).expect(200);
    const after = await entriesOf(w.id, hasDetails(`Ended shift at ${depot}`));
    expect(after).toEqual([expect.objectContaining({ type: 'end_shift' }), ...before]);
    const everyoneAfter = await logOf(admin.agent, '?limit=200');
    expect(everyoneAfter).toEqual(expect.arrayContaining(everyoneBefore));
    expect(new Set(everyoneAfter.map((e) => e.id)).size).toBe(everyoneAfter.length);
  }, 120_000);

  it('refuses to edit an entry, even from inside the database', async () => {
    const db = new Client({ connectionString: t.env.DATABASE_URL });
    await db.connect();
    try {
      await expect(db.query(`update audit.entries set details = 'rewritten'`)).rejects.toThrow('activity log entries are append-only');
    } finally {
      await db.end();
    }
  });
});
