import { randomUUID } from 'node:crypto';
import { Client, type Pool } from 'pg';
import type { EventMap, EventSubject } from '@lws/contracts';
import { InProcessBus, RpcClient, RemoteError } from '@lws/messaging';
import { createLogger, DB, startService, type RunningService } from '@lws/platform';
import { escalationService, Auditor, OnCallGapNotice, Scheduler, SINGLES_PER_PASS, URGENT_PER_PASS } from '@lws/escalation';
import { createTestDatabase, eventually, watchStatements, type Statement, type TestDatabase } from '@lws/testing';

/**
 * The escalation service on its own against real PostgreSQL, fed events on the in-process bus
 * as shifts, identity and notifications would send them, with a clock the test moves. What it
 * decides is read from its outbox: the events notifications, audit and the gateway receive.
 */

const MINUTE = 60_000;
const NUMBERS = ['+447911000001', '+447911000002', '+447911000003'];

type Requested = EventMap['escalation.notification.requested.v1'];

describe('escalation: deadlines, reminders and alarms (real PostgreSQL, test clock)', () => {
  let db: TestDatabase;
  let bus: InProcessBus;
  let svc: RunningService;
  let rpc: RpcClient;
  let pg: Client;
  // London summer time: 12:00Z is 13:00 on the worker's phone.
  let nowMs = Date.parse('2025-06-02T12:00:00.000Z');
  let nextUser = 100;
  /**
   * Request ids the stand-in for notifications says it never received (lost on the way). Every
   * other request it holds, as the real one does: a test that loses none leaves the tracker nothing
   * to ask again, so tests run after many alarms are not slowed by their requests.
   */
  const lost = new Set<string>();
  /** What notifications says became of a taken request (default: sent). */
  const outcomes = new Map<string, { outcome: 'pending' | 'sent' | 'delivered' | 'failed'; error?: string }>();
  /** While set, the stand-in for notifications answers only once it resolves (a slow notifications). */
  let answering: Promise<void> | undefined;
  /** Called each time escalation asks notifications which requests it took. */
  let asked: (() => void) | undefined;
  /**
   * With `answering` and `asked`: only an ask that names this request is held and reported. A sweep
   * asks for at most 100 requests, the longest due first, so the file's earlier requests can fill
   * the sweep right after the clock moves; the watched one comes in a later sweep (one a second).
   */
  let askedFor: string | undefined;
  /** The same for shifts, asked whether missed check-ins' deadlines stand. */
  let ownerAnswering: Promise<void> | undefined;
  /** What the stand-in for shifts says of the workers it is asked about (by default it knows none). */
  let ownerKnows: (EventMap['shifts.shift.started.v1'] & { checkedInAt?: string })[] = [];
  let ownerAsked: (() => void) | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    bus = new InProcessBus({ logger: createLogger('bus', 'silent') });
    svc = await startService(escalationService, {
      env: {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: db.url,
        HEALTH_PORT: '0',
        ESCALATION_TICK_MS: '20',
        ESCALATION_AUDIT_INTERVAL_SECONDS: '3600',
        EMERGENCY_NUMBER_1: NUMBERS[0],
        EMERGENCY_NUMBER_2: NUMBERS[1],
        EMERGENCY_NUMBER_3: NUMBERS[2],
      },
      inProcessBus: bus,
      clock: () => new Date(nowMs),
    });
    rpc = await RpcClient.create({ mode: 'in-process', bus });
    // notifications, as far as escalation's request tracking asks it: which requests it has taken.
    // shifts, as far as the scheduler asks it before a missed check-in alarm: it knows none of these
    // workers (so every deadline stands), and answers when the test lets it.
    bus.serve('shifts.worker.states.v1', async () => {
      ownerAsked?.();
      await ownerAnswering;
      const workers = ownerKnows.map((w) => ({
        userId: w.userId,
        username: `w${w.userId}`,
        onShift: true,
        shiftId: w.shiftId,
        location: w.location,
        shiftStartedAt: w.startedAt,
        nextCheckInAt: w.nextCheckInAt,
        checkInInterval: 60,
        ...(w.checkedInAt
          ? { latestCheckIn: { id: randomUUID(), checkedInAt: w.checkedInAt, location: w.location, nextCheckInAt: w.nextCheckInAt } }
          : {}),
      }));
      return { response: { workers } };
    });
    bus.serve('notifications.requests.taken.v1', async (data) => {
      const ids = (data as { requestIds: string[] }).requestIds;
      if (!askedFor || ids.includes(askedFor)) {
        asked?.();
        await answering;
      }
      const requestIds = ids.filter((id) => !lost.has(id));
      return {
        response: {
          requestIds,
          outcomes: requestIds.map((requestId) => ({ requestId, ...(outcomes.get(requestId) ?? { outcome: 'sent' }) })),
        },
      };
    });
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  }, 60_000);

  afterAll(async () => {
    await pg?.end();
    await rpc?.close();
    await svc?.close();
    await bus?.close();
    await db?.drop();
  });

  const now = () => new Date(nowMs);
  const iso = (ms: number) => new Date(ms).toISOString();
  const advance = (ms: number) => (nowMs += ms);

  async function publish<S extends EventSubject>(subject: S, data: EventMap[S]): Promise<void> {
    await bus.publish({ id: randomUUID(), subject, occurredAt: now().toISOString(), producer: 'test', data } as never);
  }

  async function events<S extends EventSubject>(subject: S, where: (d: EventMap[S]) => boolean = () => true): Promise<EventMap[S][]> {
    const { rows } = await pg.query('select payload from escalation.outbox where subject = $1 order by seq', [subject]);
    return rows.map((r) => r.payload.data as EventMap[S]).filter(where);
  }

  /** Every request, in the order written: an emergency's go on the urgent subject, each wrapping the request. */
  async function requests(where: (r: Requested) => boolean): Promise<Requested[]> {
    const { rows } = await pg.query(
      `select subject, payload from escalation.outbox where subject in ('escalation.notification.requested.v1', 'escalation.notification.urgent.v1') order by seq`,
    );
    return rows
      .map((r) => (r.subject === 'escalation.notification.urgent.v1' ? r.payload.data.request : r.payload.data) as Requested)
      .filter(where);
  }

  /** Distinct requests (an unconfirmed one asked for again is the same request, by its id). */
  const distinctRequests = async (where: (r: Requested) => boolean) => [
    ...new Map((await requests(where)).map((r) => [r.requestId, r])).values(),
  ];

  /**
   * Polls until `count` matching requests exist, then checks no more arrive by the next scheduler
   * pass. The wait is long for a step due now (the scheduler ticks every 20 ms) because a CI
   * machine running two suites at once has been seen to take more than 10 s over one.
   */
  async function expectRequests(where: (r: Requested) => boolean, count: number): Promise<Requested[]> {
    try {
      await eventually(async () => (await distinctRequests(where)).length >= count, 30_000, 20);
    } catch (err) {
      // A step that failed waits for its backoff on the test clock, which only the test moves: say which, and why.
      const { rows } = await pg.query(
        'select job_key, step, due_at, attempts, last_error from escalation.deadlines where attempts > 0 or last_error is not null',
      );
      throw new Error(
        `${String(err)}; found ${(await distinctRequests(where)).length} of ${count}; deadlines that failed: ${JSON.stringify(rows)}`,
      );
    }
    await rpc.send('escalation.deadline.process_due.v1', {});
    const found = await distinctRequests(where);
    expect(found).toHaveLength(count);
    return found;
  }

  async function deadline(userId: number): Promise<{ step: string; due_at: Date } | undefined> {
    const { rows } = await pg.query('select step, due_at from escalation.deadlines where job_key = $1', [`checkin:${userId}`]);
    return rows[0];
  }

  async function alarmOf(userId: number, kind = 'missed_check_in') {
    return eventually(
      async () => (await events('escalation.alarm.opened.v1', (a) => a.userId === userId && a.kind === kind))[0],
      10_000,
      20,
    );
  }

  async function viewOf(alarmId: string) {
    const { alarms } = await rpc.send('escalation.alarm.list.v1', { openOnly: false, limit: 500 });
    return alarms.find((a) => a.id === alarmId)!;
  }

  /** A worker identity knows, with settings and contacts, on shift with a deadline `minutes` away. */
  async function worker(
    opts: {
      minutes?: number;
      phone?: string | null;
      contacts?: string[];
      primary?: string;
      start?: boolean;
      teamId?: number;
      language?: string;
    } = {},
  ) {
    const userId = nextUser++;
    const phone = opts.phone === undefined ? `+4479111${String(userId).padStart(5, '0')}` : opts.phone;
    await publish('identity.user.created.v1', {
      userId,
      username: `w${userId}`,
      name: `Worker ${userId}`,
      role: 'worker',
      ...(phone ? { phone } : {}),
      ...(opts.teamId !== undefined ? { version: 1, teamId: opts.teamId } : {}),
      ...(opts.language ? { language: opts.language } : {}),
    });
    if (opts.primary) await publish('identity.settings.changed.v1', { userId, checkInInterval: 60, primaryContact: opts.primary });
    for (const [i, p] of (opts.contacts ?? []).entries()) {
      await publish('identity.contact.changed.v1', {
        userId,
        contactId: userId * 10 + i,
        change: 'created',
        name: `Contact ${i}`,
        phone: p,
        relation: 'family',
      });
    }
    const shiftId = randomUUID();
    const due = nowMs + (opts.minutes ?? 60) * MINUTE;
    if (opts.start !== false) {
      await eventually(
        async () => (await pg.query('select 1 from escalation.workers where user_id = $1', [userId])).rowCount === 1,
        10_000,
        20,
      );
      await publish('shifts.shift.started.v1', { shiftId, userId, location: 'Depot', startedAt: iso(nowMs), nextCheckInAt: iso(due) });
      await eventually(async () => !!(await deadline(userId)), 10_000, 20);
    }
    return { userId, phone, shiftId, due };
  }

  it('a shift start schedules the reminders at T-5 and T-2 and the alarm at T, each fired once', async () => {
    const w = await worker();
    expect(await deadline(w.userId)).toEqual({ step: 'reminder_5min', due_at: new Date(w.due - 5 * MINUTE) });

    advance(55 * MINUTE);
    const [sms5] = await expectRequests((r) => r.userId === w.userId && r.purpose === 'reminder_5min' && r.channel === 'sms', 1);
    expect(sms5).toMatchObject({
      toPhone: w.phone,
      body: 'LWS reminder: your check-in is due in 5 minutes (by 14:00). Open LWS and check in, or reply to this message with your PIN.',
    });
    expect(await requests((r) => r.userId === w.userId && r.purpose === 'reminder_5min' && r.channel === 'push')).toEqual([
      expect.objectContaining({ toUserId: w.userId }),
    ]);
    expect(await events('escalation.reminder.fired.v1', (e) => e.userId === w.userId)).toEqual([
      { userId: w.userId, shiftId: w.shiftId, dueAt: iso(w.due), minutesBefore: 5, firedAt: iso(nowMs) },
    ]);
    expect(await deadline(w.userId)).toEqual({ step: 'reminder_2min', due_at: new Date(w.due - 2 * MINUTE) });
    expect(await events('escalation.alarm.opened.v1', (a) => a.userId === w.userId)).toEqual([]);

    advance(3 * MINUTE);
    const [sms2] = await expectRequests((r) => r.userId === w.userId && r.purpose === 'reminder_2min' && r.channel === 'sms', 1);
    expect(sms2.body).toContain('due in 2 minutes (by 14:00)');

    advance(2 * MINUTE);
    const alarm = await alarmOf(w.userId);
    expect(alarm).toMatchObject({ kind: 'missed_check_in', workerName: `Worker ${w.userId}`, location: 'Depot', dueAt: iso(w.due) });
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'sms' && r.toPhone === w.phone, 1);
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'push' && r.toRole === 'monitors', 1);
    const pushes = await distinctRequests((r) => r.alarmId === alarm.alarmId && r.toUserId === w.userId);
    expect(pushes).toHaveLength(1);
    expect((await events('escalation.alarm.escalated.v1', (e) => e.alarmId === alarm.alarmId)).map((e) => e.action)).toEqual([
      'notify_worker',
      'notify_monitors',
    ]);
    expect(await deadline(w.userId)).toBeUndefined();
    expect((await viewOf(alarm.alarmId)).state).toBe('open');
  });

  it("a Welsh-speaking worker's reminders and alarm text are in Welsh; the monitors' push is not in the worker's language", async () => {
    const w = await worker({ language: 'cy' });
    const by = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(w.due),
    );
    advance(55 * MINUTE);
    const [sms5] = await expectRequests((r) => r.userId === w.userId && r.purpose === 'reminder_5min' && r.channel === 'sms', 1);
    expect(sms5.body).toBe(
      `Nodyn atgoffa LWS: mae angen i chi gofrestru ymhen 5 munud (erbyn ${by}). Agorwch LWS a chofrestru, neu atebwch y neges hon gyda'ch PIN.`,
    );
    const [push5] = await expectRequests((r) => r.userId === w.userId && r.purpose === 'reminder_5min' && r.channel === 'push', 1);
    expect(push5).toMatchObject({ title: 'Mae angen cofrestru cyn bo hir', body: expect.stringMatching(/^Nodyn atgoffa LWS/) });

    advance(5 * MINUTE);
    const alarm = await alarmOf(w.userId);
    const [text] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'sms' && r.toPhone === w.phone, 1);
    expect(text.body).toBe(
      `LWS: ni wnaethoch gofrestru erbyn ${by}. Cofrestrwch nawr os ydych yn ddiogel; mae eich monitoriaid wedi cael eu rhybuddio.`,
    );
    const [monitors] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'push' && r.toRole === 'monitors', 1);
    expect(monitors.body).toContain(`did not check in by ${by}`);
    // Each request says its language, which notifications speaks a call in; the monitors' none: it
    // carries its texts untranslated, which notifications writes in each monitor's own language.
    expect(monitors.bodyText?.text).toBe('{{name}} did not check in by {{time}} at {{location}}. Acknowledge the alarm in LWS.');
    expect([sms5.language, push5.language, text.language, monitors.language]).toEqual(['cy', 'cy', 'cy', undefined]);
    const [own] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'push' && r.toUserId === w.userId, 1);
    expect(own).toMatchObject({ title: "Cofrestriad wedi'i golli", language: 'cy' });
  });

  it("a Welsh-speaking worker's emergency: their primary contact is called and their contacts texted in Welsh; the emergency line is called in English", async () => {
    const w = await worker({ primary: '07911 200019', contacts: ['+447911200011'], start: false, language: 'cy' });
    await eventually(
      async () =>
        (await pg.query('select 1 from escalation.workers where user_id = $1 and primary_contact is not null', [w.userId])).rowCount === 1,
      10_000,
      20,
    );
    await eventually(
      async () => (await pg.query('select 1 from escalation.worker_contacts where user_id = $1', [w.userId])).rowCount === 1,
      10_000,
      20,
    );
    await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: w.userId, location: 'Y doc', raisedAt: iso(nowMs) });
    const alarm = await alarmOf(w.userId, 'emergency');
    const [call] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice', 1);
    expect(call).toMatchObject({
      toPhone: '+447911200019',
      language: 'cy',
      body: `Dyma system diogelwch gweithwyr unigol LWS. Mae Worker ${w.userId} wedi gofyn am gymorth brys yn Y doc. Pwyswch 1 i dderbyn y rhybudd hwn.`,
    });
    const texts = await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 2);
    for (const t of texts)
      expect(t).toMatchObject({
        language: 'cy',
        body: expect.stringMatching(/^ARGYFWNG LWS: mae Worker \d+ wedi gofyn am gymorth brys yn Y doc am/),
      });
    advance(2 * MINUTE);
    const [line] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice' && r.toPhone === NUMBERS[0], 1);
    expect(line.language).toBeUndefined();
    expect(line.body).toMatch(/^This is the LWS lone worker safety system\. Worker \d+ requested emergency assistance at Y doc\./);
  });

  it('reminders due together fire once each, in order; a row whose event breaks the contract is retried alone without holding the others', async () => {
    const ws = [];
    for (let i = 0; i < 12; i++) ws.push(await worker({ minutes: 30 }));
    const [bad, ...good] = ws;
    await pg.query(`update escalation.deadlines set payload = jsonb_set(payload, '{shiftId}', '"not-a-uuid"') where job_key = $1`, [
      `checkin:${bad.userId}`,
    ]);

    advance(25 * MINUTE);
    const ids = new Set(good.map((w) => w.userId));
    await eventually(
      async () => (await events('escalation.reminder.fired.v1', (e) => ids.has(e.userId))).length >= good.length,
      10_000,
      20,
    );
    await rpc.send('escalation.deadline.process_due.v1', {});
    const { rows } = await pg.query(
      `select subject, payload->'data' as data from escalation.outbox where (payload->'data'->>'userId')::int = any($1) order by seq`,
      [ws.map((w) => w.userId)],
    );
    for (const w of good) {
      const mine = rows.filter((r) => r.data.userId === w.userId);
      expect(mine.map((r) => `${r.subject} ${r.data.channel ?? ''}`.trim())).toEqual([
        'escalation.notification.requested.v1 sms',
        'escalation.notification.requested.v1 push',
        'escalation.reminder.fired.v1',
      ]);
      expect(mine[0].data).toMatchObject({ toPhone: w.phone, purpose: 'reminder_5min' });
      expect(mine[2].data).toEqual({ userId: w.userId, shiftId: w.shiftId, dueAt: iso(w.due), minutesBefore: 5, firedAt: iso(nowMs) });
      expect(await deadline(w.userId)).toEqual({ step: 'reminder_2min', due_at: new Date(w.due - 2 * MINUTE) });
    }
    // Nothing of the broken row went out, and it is due again 5 s later, not at once.
    expect(rows.filter((r) => r.data.userId === bad.userId)).toEqual([]);
    expect(await deadline(bad.userId)).toEqual({ step: 'reminder_5min', due_at: new Date(nowMs + 5000) });

    await pg.query(`update escalation.deadlines set payload = jsonb_set(payload, '{shiftId}', to_jsonb($2::text)) where job_key = $1`, [
      `checkin:${bad.userId}`,
      bad.shiftId,
    ]);
    advance(5000);
    await expectRequests((r) => r.userId === bad.userId && r.purpose === 'reminder_5min' && r.channel === 'sms', 1);
    expect(await events('escalation.reminder.fired.v1', (e) => e.userId === bad.userId)).toHaveLength(1);
  });

  it('many missed check-ins due at once are opened together: each opens one alarm and texts the worker once', async () => {
    const ws = [];
    for (let i = 0; i < 2 * SINGLES_PER_PASS + 5; i++) ws.push(await worker({ minutes: 1, contacts: [] }));
    const ids = new Set(ws.map((w) => w.userId));
    // One pass, run by the test: the loop's lanes, racing for the same due rows, may split them
    // between two passes (SKIP LOCKED), and each pass opens its share together.
    const scheduler = svc.app.get(Scheduler, { strict: false });
    await scheduler.stop();
    let opened: EventMap['escalation.alarm.opened.v1'][];
    try {
      advance(MINUTE + 1000);
      await rpc.send('escalation.deadline.process_due.v1', {});
      opened = await events('escalation.alarm.opened.v1', (a) => ids.has(a.userId) && a.kind === 'missed_check_in');
    } finally {
      scheduler.start();
    }
    expect(opened.map((a) => a.userId).sort()).toEqual([...ids].sort());
    const alarmIds = new Set(opened.map((a) => a.alarmId));
    const texts = await expectRequests(
      (r) => alarmIds.has(r.alarmId!) && r.channel === 'sms' && r.toPhone !== undefined && ws.some((w) => w.phone === r.toPhone),
      ws.length,
    );
    expect(new Set(texts.map((t) => t.toPhone)).size).toBe(ws.length);
    expect(await events('escalation.alarm.opened.v1', (a) => ids.has(a.userId))).toHaveLength(ws.length);
    // Opened together, not one savepoint each: one (sub)transaction wrote every alarm row.
    const {
      rows: [{ writers }],
    } = await pg.query('select count(distinct xmin::text)::int as writers from escalation.alarms where id = any($1)', [[...alarmIds]]);
    expect(writers).toBe(1);
    // Each alarm ran its first two steps (the worker, the monitors) as it opened, and waits for the calls.
    const { rows: waiting } = await pg.query(`select step, payload->>'index' as index from escalation.deadlines where job_key = any($1)`, [
      [...alarmIds].map((id) => `alarm:${id}`),
    ]);
    expect(waiting).toEqual([...alarmIds].map(() => ({ step: 'step', index: '2' })));
  }, 60_000);

  it('an emergency raised behind a backlog of due reminders and missed check-ins is fired first, and the missed check-ins before the reminders', async () => {
    const scheduler = svc.app.get(Scheduler, { strict: false });
    const {
      rows: [{ last }],
    } = await pg.query('select coalesce(max(seq), 0)::int as last from escalation.outbox');
    // The loop held: passes run one after another below (process_due), so the order they write in is the claim order.
    await scheduler.stop();
    const missed: number[] = [];
    const reminded: number[] = [];
    let emergencyAlarm = '';
    const backlog = new Set<number>();
    const firstSeqOf = async (where: (d: Requested) => boolean) => {
      const { rows } = await pg.query(
        `select seq, subject, payload from escalation.outbox where subject like 'escalation.notification.%' and seq > $1 order by seq`,
        [last],
      );
      const request = (r: { subject: string; payload: { data: Requested & { request: Requested } } }) =>
        r.subject === 'escalation.notification.urgent.v1' ? r.payload.data.request : r.payload.data;
      return rows.filter((r) => where(request(r))).map((r) => Number(r.seq));
    };
    const written = async () => ({
      emergency: await firstSeqOf((r) => r.alarmId === emergencyAlarm),
      missedTexts: await firstSeqOf((r) => backlog.has(r.userId!) && r.purpose === 'missed_check_in' && r.channel === 'sms'),
      reminders: await firstSeqOf((r) => backlog.has(r.userId!) && r.purpose === 'reminder_5min' && r.channel === 'sms'),
    });
    try {
      // Deadlines 6 minutes away (their first reminder is at 1 minute) are older in the queue than the missed ones.
      for (let i = 0; i < SINGLES_PER_PASS; i++) reminded.push((await worker({ minutes: 6, contacts: [] })).userId);
      for (let i = 0; i < 2 * SINGLES_PER_PASS + 5; i++) missed.push((await worker({ minutes: 1.5, contacts: [] })).userId);
      for (const id of [...missed, ...reminded]) backlog.add(id);
      const pressed = await worker({ minutes: 60, contacts: [] });
      advance(2 * MINUTE);
      await publish('shifts.emergency.raised.v1', {
        emergencyId: randomUUID(),
        userId: pressed.userId,
        location: 'Car park',
        raisedAt: iso(nowMs),
      });
      emergencyAlarm = (await alarmOf(pressed.userId, 'emergency')).alarmId;
      const { rows } = await pg.query('select job_key from escalation.deadlines where job_key = any($1) order by priority, due_at', [
        [`alarm:${emergencyAlarm}`, `checkin:${missed[0]}`, `checkin:${reminded[0]}`],
      ]);
      expect(rows.map((r) => r.job_key)).toEqual([`alarm:${emergencyAlarm}`, `checkin:${missed[0]}`, `checkin:${reminded[0]}`]);

      for (let pass = 0; pass < 10; pass++) {
        const w = await written();
        if (w.missedTexts.length >= missed.length && w.reminders.length >= reminded.length) break;
        await rpc.send('escalation.deadline.process_due.v1', {});
      }
    } finally {
      scheduler.start();
    }
    const seqs = await written();
    expect({ missed: seqs.missedTexts.length, reminders: seqs.reminders.length }).toEqual({
      missed: missed.length,
      reminders: reminded.length,
    });
    // The emergency's first messages were written before anything of the backlog, and every missed
    // check-in's (each alarm's first step runs in the pass that opens it) before the reminders.
    // First in, first out, the emergency, due last, came out last.
    expect(seqs.emergency[0]).toBeLessThan(Math.min(...seqs.missedTexts, ...seqs.reminders));
    expect(Math.max(...seqs.missedTexts)).toBeLessThan(Math.min(...seqs.reminders));

    // Closed, so the request tracker does not keep asking about them in the tests that follow.
    const opened = await events('escalation.alarm.opened.v1', (a) => backlog.has(a.userId) || a.alarmId === emergencyAlarm);
    for (const a of opened)
      await rpc.send('escalation.alarm.resolve.v1', {
        alarmId: a.alarmId,
        byUserId: 7,
        verdict: 'false_alarm',
        reason: 'no_signal',
        note: 'Priority test',
      });
  }, 90_000);

  it('a reminder whose check-in deadline passed while the scheduler was down is claimed as a missed check-in, not behind every other one', async () => {
    const scheduler = svc.app.get(Scheduler, { strict: false });
    // Held, as if the service were down: nothing fires until the pass below.
    await scheduler.stop();
    const backlog = new Set<number>();
    let late!: Awaited<ReturnType<typeof worker>>;
    let first: Awaited<ReturnType<Scheduler['pass']>> = [];
    try {
      // A deadline 3 minutes away: its 2 minute reminder is the next step, and never goes out.
      late = await worker({ minutes: 3, contacts: [] });
      backlog.add(late.userId);
      advance(2.5 * MINUTE);
      // More missed check-ins than a pass takes, their deadlines half a minute after its.
      for (let i = 0; i <= URGENT_PER_PASS; i += 25) {
        const chunk = await Promise.all(
          Array.from({ length: Math.min(25, URGENT_PER_PASS + 1 - i) }, () => worker({ minutes: 1, contacts: [] })),
        );
        for (const w of chunk) backlog.add(w.userId);
      }
      advance(2 * MINUTE);
      expect(await deadline(late.userId)).toEqual({ step: 'reminder_2min', due_at: new Date(late.due - 2 * MINUTE) });
      first = await scheduler.pass();
    } finally {
      scheduler.start();
    }
    // The first pass could not open every missed check-in, and its was among those it did: its deadline is the oldest.
    expect(first.filter((r) => backlog.has(r.userId) && r.status === 'missed_check_in').length).toBeLessThan(backlog.size);
    expect(first).toContainEqual({
      userId: late.userId,
      jobKey: `checkin:${late.userId}`,
      step: 'reminder_2min',
      status: 'missed_check_in',
    });
    expect(await alarmOf(late.userId)).toMatchObject({ dueAt: iso(late.due) });
    expect(await requests((r) => r.userId === late.userId && r.purpose === 'reminder_2min')).toEqual([]);

    // Closed, so the request tracker does not keep asking about them in the tests that follow.
    const opened = await eventually(
      async () => {
        const found = await events('escalation.alarm.opened.v1', (a) => backlog.has(a.userId));
        return found.length >= backlog.size ? found : undefined;
      },
      30_000,
      50,
    );
    for (const a of opened)
      await rpc.send('escalation.alarm.resolve.v1', {
        alarmId: a.alarmId,
        byUserId: 7,
        verdict: 'false_alarm',
        reason: 'no_signal',
        note: 'Priority test',
      });
  }, 120_000);

  it('asks shifts whether a missed check-in stands with no row held, then opens the alarm; a check-in meanwhile wins', async () => {
    const w = await worker({ minutes: 1, contacts: [] });
    const late = await worker({ minutes: 1, contacts: [] });
    let answer!: () => void;
    ownerAnswering = new Promise((resolve) => (answer = resolve));
    const askedNow = new Promise<void>((resolve) => (ownerAsked = resolve));
    try {
      advance(MINUTE + 1000);
      await askedNow;
      // While shifts takes its time (it answers nobody until answer()), the deadlines are free: a
      // check-in's event can move one. Another lane may still be leasing w's row as the first asks.
      const lock = await eventually(
        () => pg.query('select step from escalation.deadlines where job_key = $1 for update nowait', [`checkin:${w.userId}`]),
        10_000,
        50,
      );
      expect(lock.rows).toEqual([{ step: 'missed' }]);
      const next = nowMs + 60 * MINUTE;
      await publish('shifts.checkin.recorded.v1', {
        checkInId: randomUUID(),
        shiftId: late.shiftId,
        userId: late.userId,
        location: 'Depot',
        checkedInAt: iso(nowMs),
        nextCheckInAt: iso(next),
      });
      await eventually(async () => (await deadline(late.userId))?.due_at.getTime() === next - 5 * MINUTE, 10_000, 20);
    } finally {
      ownerAsked = undefined;
      answer();
      ownerAnswering = undefined;
    }
    await alarmOf(w.userId);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await events('escalation.alarm.opened.v1', (a) => a.userId === late.userId)).toEqual([]);
  });

  it('check in now: a check-in escalation has not heard of answers the request when shifts knows it, with no alarm; a request nobody answers opens one', async () => {
    const heardLate = await worker({ minutes: 60 });
    const silent = await worker({ minutes: 60 });
    const ask = (userId: number) =>
      rpc.send('escalation.checkin_request.create.v1', { byUserId: 1, userId, answerWithinMinutes: 3 }).then((r) => r.batch);
    const [first, second] = [await ask(heardLate.userId), await ask(silent.userId)];
    expect(await requests((r) => r.purpose === 'checkin_request' && r.channel === 'push' && r.toUserId === heardLate.userId)).toHaveLength(
      1,
    );
    advance(MINUTE);
    await expectRequests((r) => r.purpose === 'checkin_request' && r.channel === 'sms' && r.toPhone === silent.phone, 1);
    // heardLate checked in at shifts a minute after the request; its event never reached escalation.
    const checkedInAt = iso(nowMs);
    ownerKnows = [
      {
        shiftId: heardLate.shiftId,
        userId: heardLate.userId,
        location: 'Depot',
        startedAt: iso(nowMs),
        nextCheckInAt: iso(nowMs + 60 * MINUTE),
        checkedInAt,
      },
    ];
    try {
      advance(2 * MINUTE + 1000);
      await alarmOf(silent.userId);
      const answered = await eventually(
        async () => (await rpc.send('escalation.checkin_request.get.v1', { batchId: first.id })).batch.workers[0],
        10_000,
        20,
      );
      expect(answered).toMatchObject({ state: 'answered', answeredAt: checkedInAt });
      expect(await events('escalation.alarm.opened.v1', (a) => a.userId === heardLate.userId)).toEqual([]);
      const repairs = await events(
        'escalation.system_alert.raised.v1',
        (a) => a.code === 'deadline_reconciled' && a.userId === heardLate.userId,
      );
      expect(repairs).toEqual([
        expect.objectContaining({ details: expect.stringContaining('the request to check in was answered, no alarm raised') }),
      ]);
      expect((await rpc.send('escalation.checkin_request.get.v1', { batchId: second.id })).batch.workers[0]).toMatchObject({
        state: 'alarm',
      });
    } finally {
      ownerKnows = [];
    }
  });

  it('a check-in before T cancels the pending steps and schedules the next deadline', async () => {
    const w = await worker();
    advance(56 * MINUTE);
    await expectRequests((r) => r.userId === w.userId && r.purpose === 'reminder_5min' && r.channel === 'sms', 1);
    const next = nowMs + 60 * MINUTE;
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      checkedInAt: iso(nowMs),
      nextCheckInAt: iso(next),
    });
    await eventually(async () => (await deadline(w.userId))?.due_at.getTime() === next - 5 * MINUTE, 10_000, 20);

    advance(10 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.userId === w.userId && r.purpose === 'reminder_2min')).toEqual([]);
    expect(await events('escalation.alarm.opened.v1', (a) => a.userId === w.userId)).toEqual([]);
    const status = await rpc.send('escalation.reminder.status.v1', {});
    expect(status.reminderSystemActive).toBe(true);
    expect(status.workers.find((x) => x.userId === w.userId)).toMatchObject({
      nextCheckInAt: iso(next),
      minutesUntil: 50,
      due_5min: false,
    });
  });

  it('a deadline a minute away schedules only the alarm; a late check-in stops its steps and is recorded', async () => {
    const w = await worker({ minutes: 1 });
    expect(await deadline(w.userId)).toEqual({ step: 'missed', due_at: new Date(w.due) });
    advance(MINUTE + 1000);
    const alarm = await alarmOf(w.userId);

    advance(30_000);
    const lateAt = nowMs;
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      checkedInAt: iso(lateAt),
      nextCheckInAt: iso(lateAt + 60 * MINUTE),
    });
    await eventually(
      async () => (await events('escalation.alarm.late_check_in.v1', (e) => e.alarmId === alarm.alarmId)).length === 1,
      10_000,
      20,
    );

    advance(5 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toEqual([]);
    const view = await viewOf(alarm.alarmId);
    expect(view).toMatchObject({ state: 'open', lateCheckInAt: iso(lateAt) });
    expect(view.history.at(-1)).toMatch(/^Late check-in at \d\d:\d\d: no further steps$/);
    expect(await deadline(w.userId)).toMatchObject({ step: 'reminder_5min' });
  });

  it('a check-in that reached the server after the alarm opened stays late, whatever time the device says it was made', async () => {
    const w = await worker({ minutes: 1 });
    advance(MINUTE + 1000);
    const alarm = await alarmOf(w.userId);
    // Kept offline: sent 8 minutes after the alarm opened, saying it was made 30 s before the deadline.
    advance(8 * MINUTE);
    const arrived = nowMs;
    const claimed = w.due - 30_000;
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      checkedInAt: iso(claimed),
      nextCheckInAt: iso(claimed + 60 * MINUTE),
      receivedAt: iso(arrived),
    });
    const [late] = await eventually(
      async () => {
        const found = await events('escalation.alarm.late_check_in.v1', (e) => e.alarmId === alarm.alarmId);
        return found.length === 1 && found;
      },
      10_000,
      20,
    );
    expect(late.checkedInAt).toBe(iso(arrived));
    const view = await viewOf(alarm.alarmId);
    expect(view).toMatchObject({ kind: 'missed_check_in', state: 'open', lateCheckInAt: iso(arrived) });
    const london = (ms: number) =>
      new Date(ms).toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' });
    expect(view.history.at(-1)).toBe(
      `Late check-in at ${london(arrived)} (the worker's device says it was made at ${london(claimed)}): no further steps`,
    );
    expect(view.history.join('\n')).not.toContain('before the deadline');

    // One that reached the server in time, heard by escalation only after the alarm opened, is what "before the deadline" means.
    const v = await worker({ minutes: 1 });
    advance(MINUTE + 1000);
    const raced = await alarmOf(v.userId);
    const inTime = v.due - 2000;
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: v.shiftId,
      userId: v.userId,
      location: 'Depot',
      checkedInAt: iso(inTime),
      nextCheckInAt: iso(inTime + 60 * MINUTE),
    });
    await eventually(
      async () => (await events('escalation.alarm.late_check_in.v1', (e) => e.alarmId === raced.alarmId)).length === 1,
      10_000,
      20,
    );
    expect((await viewOf(raced.alarmId)).history.at(-1)).toBe(
      `Checked in at ${london(inTime)}, before the deadline (the check-in reached escalation late): no further steps`,
    );
  });

  it('a shift end cancels the deadline, and stops the steps of an open missed-check-in alarm', async () => {
    const w = await worker({ minutes: 3 });
    await publish('shifts.shift.ended.v1', {
      shiftId: w.shiftId,
      userId: w.userId,
      endedAt: iso(nowMs),
      endedBy: w.userId,
      reason: 'worker',
    });
    await eventually(async () => !(await deadline(w.userId)), 10_000, 20);
    advance(10 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.userId === w.userId)).toEqual([]);

    const v = await worker({ minutes: 1 });
    advance(MINUTE + 1000);
    const alarm = await alarmOf(v.userId);
    await publish('shifts.shift.ended.v1', { shiftId: v.shiftId, userId: v.userId, endedAt: iso(nowMs), endedBy: 1, reason: 'forced' });
    await eventually(
      async () => (await viewOf(alarm.alarmId)).history.some((h) => h === 'Shift ended (forced): no further steps'),
      10_000,
      20,
    );
    advance(5 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toEqual([]);
    // A check-in of the ended shift arriving late does not put the worker back on shift.
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: v.shiftId,
      userId: v.userId,
      location: 'Depot',
      checkedInAt: iso(nowMs - 2 * MINUTE),
      nextCheckInAt: iso(nowMs + 58 * MINUTE),
    });
    await publish('identity.user.updated.v1', { userId: v.userId, name: 'Marker' });
    await eventually(
      async () => (await pg.query(`select 1 from escalation.workers where user_id = $1 and name = 'Marker'`, [v.userId])).rowCount === 1,
      10_000,
      20,
    );
    expect(await deadline(v.userId)).toBeUndefined();
  });

  it('an emergency opens an alarm at once, calls the primary contact and texts every contact', async () => {
    const contacts = ['+447911200001', '+447911200002'];
    const w = await worker({ primary: '07911 200009', contacts, start: false });
    await eventually(
      async () => (await pg.query('select 1 from escalation.worker_contacts where user_id = $1', [w.userId])).rowCount === 2,
      10_000,
      20,
    );
    await eventually(
      async () =>
        (await pg.query('select 1 from escalation.workers where user_id = $1 and primary_contact is not null', [w.userId])).rowCount === 1,
      10_000,
      20,
    );
    await publish('shifts.emergency.raised.v1', {
      emergencyId: randomUUID(),
      userId: w.userId,
      location: 'Loading bay',
      raisedAt: iso(nowMs),
    });
    const alarm = await alarmOf(w.userId, 'emergency');
    expect(alarm).toMatchObject({ location: 'Loading bay', openedAt: iso(nowMs) });

    const [call] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice', 1);
    expect(call).toMatchObject({ toPhone: '+447911200009', purpose: 'alarm_call', callTimeoutSeconds: 60 });
    const texts = await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 3);
    expect(texts.map((t) => t.toPhone).sort()).toEqual(['+447911200001', '+447911200002', '+447911200009']);
    expect(texts[0].body).toContain('requested emergency assistance at Loading bay');
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.toRole === 'monitors', 1);
    // The primary contact's answer is recorded but does not stand in for the emergency numbers.
    await publish('notifications.call.completed.v1', {
      messageId: randomUUID(),
      requestId: call.requestId,
      alarmId: alarm.alarmId,
      to: call.toPhone!,
      callSid: 'CA1',
      outcome: 'accepted',
      at: iso(nowMs),
    });
    await eventually(async () => (await viewOf(alarm.alarmId)).history.includes('Called +447911200009: accepted (pressed 1)'), 10_000, 20);
    advance(2 * MINUTE);
    const [first] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice' && r.toPhone === NUMBERS[0], 1);
    expect(first.callTimeoutSeconds).toBe(60);
  });

  it("an emergency's first steps run on the rows its opening wrote: neither its alarm nor its deadline is read or locked again", async () => {
    // Every statement escalation's pool runs, with its parameters, while the emergency is taken.
    const pool = (svc.app.get(DB, { strict: false }) as { $client: Pool }).$client;
    const seen: Statement[] = [];
    const unwatch = watchStatements(pool, (statement) => seen.push(statement));
    try {
      const w = await worker({ contacts: ['+447911600001'], start: false });
      await eventually(
        async () => (await pg.query('select 1 from escalation.worker_contacts where user_id = $1', [w.userId])).rowCount === 1,
        10_000,
        20,
      );
      await publish('shifts.emergency.raised.v1', {
        emergencyId: randomUUID(),
        userId: w.userId,
        location: 'Stairwell',
        raisedAt: iso(nowMs),
      });
      const alarm = await alarmOf(w.userId, 'emergency');
      await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 1);
      const aboutIt = seen.filter((q) => q.values.some((v) => v === alarm.alarmId || v === `alarm:${alarm.alarmId}`));
      // Its rows were written (the alarm, its deadline, its steps' follow-up) ...
      expect(aboutIt.some((q) => /insert into "escalation"."alarms"/i.test(q.text))).toBe(true);
      // ... and never locked again in the transaction that wrote them (it was twice: the deadline, then the alarm).
      expect(aboutIt.filter((q) => /for update/i.test(q.text)).map((q) => q.text)).toEqual([]);
    } finally {
      unwatch();
    }
  });

  it('a run of steps writes its alarm row once, whatever it changes: the steps it ran, the call round, an accepted call', async () => {
    // Every UPDATE of an alarm row, with the transaction that made it.
    await pg.query('create table public.alarm_writes (alarm_id uuid not null, tx bigint not null)');
    await pg.query(`create function public.alarm_written() returns trigger language plpgsql as $$
      begin insert into public.alarm_writes values (new.id, txid_current()); return new; end $$`);
    await pg.query('create trigger alarm_written after update on escalation.alarms for each row execute function public.alarm_written()');
    try {
      const w = await worker({ contacts: ['+447911500001'], start: false });
      await eventually(
        async () => (await pg.query('select 1 from escalation.worker_contacts where user_id = $1', [w.userId])).rowCount === 1,
        10_000,
        20,
      );
      await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: w.userId, location: 'Yard', raisedAt: iso(nowMs) });
      const alarm = await alarmOf(w.userId, 'emergency');
      // Its first two steps (the monitors, the contacts) ran as it opened.
      await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 1);
      advance(2 * MINUTE);
      const [call] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice' && r.toPhone === NUMBERS[0], 1);
      await outcome(alarm.alarmId, call, 'accepted');
      await eventually(
        async () => (await viewOf(alarm.alarmId)).history.includes('Emergency response line accepted the alarm'),
        10_000,
        20,
      );

      // Three runs (the opening, the calls' step, the accepted call), one UPDATE each, which wrote all they changed.
      const { rows } = await pg.query(
        'select count(*)::int as writes from public.alarm_writes where alarm_id = $1 group by tx order by tx',
        [alarm.alarmId],
      );
      expect(rows.map((r) => r.writes)).toEqual([1, 1, 1]);
      const {
        rows: [row],
      } = await pg.query('select step_index, call_round, call_accepted_at from escalation.alarms where id = $1', [alarm.alarmId]);
      expect(row).toEqual({ step_index: 2, call_round: 1, call_accepted_at: now() });
    } finally {
      await pg.query(
        'drop trigger alarm_written on escalation.alarms; drop function public.alarm_written(); drop table public.alarm_writes',
      );
    }
  });

  it("identity's events applied out of order: the newest version of the phone, the settings and each contact wins, and the emergency uses those", async () => {
    const userId = nextUser++;
    const row = async () => (await pg.query('select phone, primary_contact from escalation.workers where user_id = $1', [userId])).rows[0];
    const contact = async (contactId: number) =>
      (await pg.query('select phone from escalation.worker_contacts where contact_id = $1', [contactId])).rows[0]?.phone;
    const profile = (phone: string, version: number) => ({ userId, name: `Worker ${userId}`, role: 'worker' as const, phone, version });

    await publish('identity.user.created.v1', { userId, username: `w${userId}`, ...profile('+447911400001', 1) });
    await publish('identity.user.updated.v1', profile('+447911400004', 4));
    await eventually(async () => (await row())?.phone === '+447911400004', 10_000, 20);
    // A rename or new phone from before it, delivered after it (a redelivery, a replayed letter).
    await publish('identity.user.updated.v1', profile('+447911400002', 2));

    await publish('identity.settings.changed.v1', { userId, checkInInterval: 60, primaryContact: '+447911400505', version: 5 });
    await eventually(async () => (await row())?.primary_contact === '+447911400505', 10_000, 20);
    await publish('identity.settings.changed.v1', { userId, checkInInterval: 60, primaryContact: '+447911400303', version: 3 });

    const contactId = userId * 10;
    const changed = (phone: string, version: number) =>
      publish('identity.contact.changed.v1', { userId, contactId, change: 'updated', name: 'Sam', phone, relation: 'family', version });
    await changed('+447911400808', 8);
    await eventually(async () => (await contact(contactId)) === '+447911400808', 10_000, 20);
    await changed('+447911400707', 7);
    // A second contact deleted, then an older update of it: it stays deleted.
    await publish('identity.contact.changed.v1', { userId, contactId: contactId + 1, change: 'deleted', version: 10 });
    await publish('identity.contact.changed.v1', {
      userId,
      contactId: contactId + 1,
      change: 'updated',
      name: 'Old',
      phone: '+447911400909',
      relation: 'friend',
      version: 9,
    });

    // The late events have been taken by now: an event published after them has been applied.
    await publish('identity.user.updated.v1', { ...profile('+447911400004', 11), name: 'Worker Renamed' });
    await eventually(
      async () =>
        (await pg.query('select 1 from escalation.workers where user_id = $1 and name = $2', [userId, 'Worker Renamed'])).rowCount === 1,
      10_000,
      20,
    );
    expect(await row()).toEqual({ phone: '+447911400004', primary_contact: '+447911400505' });
    expect(await contact(contactId)).toBe('+447911400808');

    await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId, location: 'Stairwell', raisedAt: iso(nowMs) });
    const alarm = await alarmOf(userId, 'emergency');
    const [call] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice', 1);
    expect(call.toPhone).toBe('+447911400505');
    const texts = await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 2);
    expect(texts.map((t) => t.toPhone).sort()).toEqual(['+447911400505', '+447911400808']);
  });

  it("shifts' version decides which deadline is newer, not its replicas' clocks: a check-in after a moved deadline applies, and the alarm fires on it", async () => {
    const w = await worker({ start: false, contacts: [] });
    const copy = async () =>
      (await pg.query('select next_check_in_at, shifts_version from escalation.workers where user_id = $1', [w.userId])).rows[0] as
        | { next_check_in_at: Date; shifts_version: number }
        | undefined;
    await publish('shifts.shift.started.v1', {
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      startedAt: iso(nowMs),
      nextCheckInAt: iso(nowMs + 60 * MINUTE),
      workerVersion: 1,
    });
    await eventually(async () => (await copy())?.shifts_version === 1, 10_000, 20);
    // A superadmin moves the deadline two hours out on a shifts replica whose clock is 10 s ahead...
    await publish('shifts.deadline.changed.v1', {
      shiftId: w.shiftId,
      userId: w.userId,
      nextCheckInAt: iso(nowMs + 120 * MINUTE),
      reason: 'simulated',
      byUserId: 1,
      changedAt: iso(nowMs + 10_000),
      workerVersion: 2,
    });
    await eventually(async () => (await copy())?.shifts_version === 2, 10_000, 20);
    // ...then the worker checks in on a replica 5 s behind: later in shifts' order, earlier by its clock.
    const due = nowMs + 30 * MINUTE;
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      checkedInAt: iso(nowMs + 5000),
      nextCheckInAt: iso(due),
      workerVersion: 3,
    });
    await eventually(async () => (await copy())?.shifts_version === 3, 10_000, 20);
    expect((await copy())!.next_check_in_at.toISOString()).toBe(iso(due));
    // An older event delivered again changes nothing.
    await publish('shifts.deadline.changed.v1', {
      shiftId: w.shiftId,
      userId: w.userId,
      nextCheckInAt: iso(nowMs + 120 * MINUTE),
      reason: 'simulated',
      byUserId: 1,
      changedAt: iso(nowMs + 10_000),
      workerVersion: 2,
    });
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      checkedInAt: iso(nowMs + 6000),
      nextCheckInAt: iso(due + 1000),
      workerVersion: 4,
    });
    await eventually(async () => (await copy())?.shifts_version === 4, 10_000, 20);
    expect((await copy())!.next_check_in_at.toISOString()).toBe(iso(due + 1000));

    advance(30 * MINUTE + 2000);
    const alarm = await alarmOf(w.userId);
    expect(alarm.dueAt).toBe(iso(due + 1000));
  });

  async function missedAlarm(opts: { contacts?: string[] } = {}) {
    const w = await worker({ minutes: 1, contacts: opts.contacts ?? ['+447911300001'] });
    if (opts.contacts?.length !== 0)
      await eventually(
        async () => (await pg.query('select 1 from escalation.worker_contacts where user_id = $1', [w.userId])).rowCount! > 0,
        10_000,
        20,
      );
    advance(MINUTE + 1000);
    const alarm = await alarmOf(w.userId);
    return { w, alarm };
  }

  const outcome = (alarmId: string, r: Requested, o: EventMap['notifications.call.completed.v1']['outcome']) =>
    publish('notifications.call.completed.v1', {
      messageId: randomUUID(),
      requestId: r.requestId,
      alarmId,
      to: r.toPhone!,
      callSid: `CA${randomUUID().slice(0, 8)}`,
      outcome: o,
      at: iso(nowMs),
    });

  it('asks notifications which requests it took without holding their rows, and applies the answer after', async () => {
    const { alarm } = await missedAlarm({ contacts: [] });
    const [sms] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'sms', 1);
    let answer!: () => void;
    answering = new Promise((resolve) => (answer = resolve));
    const askedNow = new Promise<void>((resolve) => (asked = resolve));
    askedFor = sms.requestId;
    try {
      advance(31_000);
      await askedNow;
      // While notifications takes its time, the request's row is free: nothing waits on the sweep.
      const lock = await pg.query('select asks from escalation.notification_requests where request_id = $1 for update nowait', [
        sms.requestId,
      ]);
      expect(lock.rowCount).toBe(1);
    } finally {
      asked = undefined;
      askedFor = undefined;
      answer();
      answering = undefined;
    }
    // The answer (taken, sent) is applied once it comes: the SMS waits for its delivery receipt.
    await eventually(
      async () =>
        (await pg.query('select last_status from escalation.notification_requests where request_id = $1', [sms.requestId])).rows[0]
          ?.last_status === 'sent',
      10_000,
      20,
    );
  });

  it("an alarm's request notifications never took is asked for again with the same id, and after 3 asks an operator hears of it", async () => {
    const { w, alarm } = await missedAlarm({ contacts: [] });
    const [sms] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'sms' && r.toPhone === w.phone, 1);
    // notifications took every request of the alarm but the worker's SMS (its request was lost on the way).
    lost.add(sms.requestId);
    const others = await distinctRequests((r) => r.alarmId === alarm.alarmId && r.requestId !== sms.requestId);
    expect(others.length).toBeGreaterThan(0);
    const copies = async (requestId: string) => (await requests((r) => r.requestId === requestId)).length;
    const tracked = async () =>
      (
        await pg.query(
          'select request_id, asks, confirmed_at is not null as confirmed from escalation.notification_requests where alarm_id = $1 order by request_id',
          [alarm.alarmId],
        )
      ).rows;

    for (let asks = 2; asks <= 4; asks++) {
      advance(31_000);
      await eventually(async () => (await copies(sms.requestId)) === asks, 10_000, 20);
    }
    // Each copy is the request as it was: same id, same number, same words. What notifications had was never asked for again.
    expect(new Set((await requests((r) => r.requestId === sms.requestId)).map((r) => JSON.stringify(r))).size).toBe(1);
    for (const r of others) expect(await copies(r.requestId)).toBe(1);
    const mine = (await tracked()).filter((t) => t.request_id === sms.requestId || others.some((o) => o.requestId === t.request_id));
    expect(mine.filter((t) => !t.confirmed)).toEqual([{ request_id: sms.requestId, asks: 4, confirmed: false }]);
    expect(mine.filter((t) => t.confirmed)).toHaveLength(others.length);
    const [alert] = await eventually(
      async () => {
        const found = await events(
          'escalation.system_alert.raised.v1',
          (a) => a.code === 'notification_unconfirmed' && a.userId === w.userId,
        );
        return found.length > 0 && found;
      },
      10_000,
      20,
    );
    expect(alert.details).toContain(`the SMS to ${w.phone} for alarm ${alarm.alarmId} after 3 requests`);

    // Taken at last: confirmed at the next look, no more asks, and no second alert.
    lost.delete(sms.requestId);
    advance(31_000);
    await eventually(async () => (await tracked()).find((t) => t.request_id === sms.requestId)?.confirmed, 10_000, 20);
    advance(31_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await copies(sms.requestId)).toBe(4);
    expect(
      await events('escalation.system_alert.raised.v1', (a) => a.code === 'notification_unconfirmed' && a.userId === w.userId),
    ).toHaveLength(1);
  });

  it('every message telling of an alarm failed for good: its calls start at once, not after the acknowledgement wait, and its history says why', async () => {
    const { w, alarm } = await missedAlarm({ contacts: [] });
    const voice = (r: Requested) => r.alarmId === alarm.alarmId && r.channel === 'voice';
    // The worker's push and SMS and the monitors' push.
    const told = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel !== 'voice' && r.purpose === 'missed_check_in', 3);
    for (const r of told) {
      outcomes.set(
        r.requestId,
        r.channel === 'sms'
          ? { outcome: 'failed', error: 'Invalid phone number (21211)' }
          : { outcome: 'failed', error: 'No push subscription' },
      );
    }
    advance(31_000);
    const [first] = await expectRequests((r) => voice(r) && r.toPhone === NUMBERS[0], 1);
    expect(first).toBeDefined();
    const view = await viewOf(alarm.alarmId);
    expect(view.history).toEqual(
      expect.arrayContaining([
        `The SMS to ${w.phone} failed: Invalid phone number (21211)`,
        'The push notification to the monitors failed: No push subscription',
        'Nobody could be told of the alarm (every message to the worker and the monitors failed): calling the emergency numbers now',
      ]),
    );
    expect(await events('escalation.system_alert.raised.v1', (a) => a.code === 'nobody_reached' && a.userId === w.userId)).toHaveLength(1);
  });

  it("one failed message while others got through goes on the alarm's history, and the calls still wait the 2 minutes", async () => {
    const { w, alarm } = await missedAlarm({ contacts: [] });
    const [sms] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'sms' && r.toPhone === w.phone, 1);
    outcomes.set(sms.requestId, { outcome: 'failed', error: 'Unreachable handset (30003)' });
    advance(31_000);
    // What got through says so too, per channel: the history never claims more than happened. (A
    // sweep asks about 100 requests, oldest first: this alarm's may be split between two sweeps.)
    const told = [
      `The SMS to ${w.phone} failed: Unreachable handset (30003)`,
      'The push notification to the monitors was sent',
      'The push notification to the worker was sent',
    ];
    await eventually(
      async () => {
        const { history } = await viewOf(alarm.alarmId);
        return told.every((line) => history.includes(line));
      },
      10_000,
      20,
    );
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toEqual([]);
    expect(await events('escalation.system_alert.raised.v1', (a) => a.code === 'nobody_reached' && a.userId === w.userId)).toEqual([]);
    // The acknowledgement wait runs from the alarm, not from the failure.
    advance(2 * MINUTE - 31_000);
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice' && r.toPhone === NUMBERS[0], 1);
  });

  it("an SMS sent, then its delivery receipt: both go on the alarm's history; a push, which has no receipt, stops at sent", async () => {
    const { w, alarm } = await missedAlarm({ contacts: [] });
    const [sms] = await expectRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'sms' && r.toPhone === w.phone, 1);
    outcomes.set(sms.requestId, { outcome: 'sent' });
    advance(31_000);
    await eventually(async () => (await viewOf(alarm.alarmId)).history.includes(`The SMS to ${w.phone} was sent`), 10_000, 20);
    expect((await viewOf(alarm.alarmId)).history).not.toContain(`The SMS to ${w.phone} was delivered`);
    outcomes.set(sms.requestId, { outcome: 'delivered' });
    advance(31_000);
    await eventually(async () => (await viewOf(alarm.alarmId)).history.includes(`The SMS to ${w.phone} was delivered`), 10_000, 20);
    const { rows } = await pg.query(
      `select channel, last_status, next_ask_at from escalation.notification_requests n cross join lateral (select n.request->>'channel' as channel) c where alarm_id = $1 and channel <> 'voice' order by channel`,
      [alarm.alarmId],
    );
    // Nothing is asked about any more: the SMS has its receipt, the pushes were final at sent.
    expect(
      rows.map((r: { channel: string; last_status: string; next_ask_at: Date | null }) => [r.channel, r.last_status, r.next_ask_at]),
    ).toEqual([
      ['push', 'sent', null],
      ['push', 'sent', null],
      ['sms', 'delivered', null],
    ]);
    // Said once each, however often it is asked about.
    expect((await viewOf(alarm.alarmId)).history.filter((h) => h.startsWith(`The SMS to ${w.phone}`))).toEqual([
      `The SMS to ${w.phone} was sent`,
      `The SMS to ${w.phone} was delivered`,
    ]);
  });

  it('unacknowledged after 2 minutes the numbers are called in order: not accepted moves on, accepted stops the calls and contacts are messaged', async () => {
    const { alarm } = await missedAlarm();
    const voice = (to: string) => (r: Requested) => r.alarmId === alarm.alarmId && r.channel === 'voice' && r.toPhone === to;
    advance(MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toEqual([]);

    advance(MINUTE);
    const [first] = await expectRequests(voice(NUMBERS[0]), 1);
    await outcome(alarm.alarmId, first, 'not_accepted');
    const [second] = await expectRequests(voice(NUMBERS[1]), 1);
    // The same outcome delivered twice (a new event id) advances nothing.
    await outcome(alarm.alarmId, first, 'not_accepted');
    await outcome(alarm.alarmId, second, 'accepted');
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message' && r.toPhone === '+447911300001', 1);
    expect(await requests(voice(NUMBERS[2]))).toEqual([]);
    expect(await requests(voice(NUMBERS[1]))).toHaveLength(1);

    advance(30 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toHaveLength(2);
    expect((await viewOf(alarm.alarmId)).history).toEqual(
      expect.arrayContaining([`Called ${NUMBERS[0]}: answered but did not press 1`, `Called ${NUMBERS[1]}: accepted (pressed 1)`]),
    );
  });

  it('the watchdog moves on when a call outcome is lost; after the last number a system alert, contacts, and calls again while nobody acknowledges', async () => {
    const { w, alarm } = await missedAlarm();
    const voice = (to: string) => (r: Requested) => r.alarmId === alarm.alarmId && r.channel === 'voice' && r.toPhone === to;
    advance(2 * MINUTE);
    await expectRequests(voice(NUMBERS[0]), 1);
    advance(60_000 + 29_000);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests(voice(NUMBERS[1]))).toEqual([]);
    advance(2000);
    await expectRequests(voice(NUMBERS[1]), 1);
    advance(91_000);
    await expectRequests(voice(NUMBERS[2]), 1);
    advance(91_000);
    await eventually(
      async () =>
        (await events('escalation.system_alert.raised.v1', (a) => a.userId === w.userId && a.code === 'emergency_calls_unanswered'))
          .length === 1,
      10_000,
      20,
    );
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 1);

    advance(5 * MINUTE);
    await expectRequests(voice(NUMBERS[0]), 2);
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.toRole === 'monitors', 2);
    await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 1);
  });

  it('acknowledging stops the call round; acknowledging again answers the first acknowledgement', async () => {
    const { alarm } = await missedAlarm();
    advance(MINUTE);
    const first = await rpc.send('escalation.alarm.acknowledge.v1', { alarmId: alarm.alarmId, byUserId: 7 });
    expect(first.alarm).toMatchObject({ state: 'acknowledged', acknowledgedBy: 7, acknowledgedAt: iso(nowMs) });
    advance(MINUTE);
    const again = await rpc.send('escalation.alarm.acknowledge.v1', { alarmId: alarm.alarmId, byUserId: 8 });
    expect(again.alarm).toMatchObject({ acknowledgedBy: 7, acknowledgedAt: first.alarm.acknowledgedAt });
    expect(await events('escalation.alarm.acknowledged.v1', (e) => e.alarmId === alarm.alarmId)).toHaveLength(1);

    await expectRequests((r) => r.alarmId === alarm.alarmId && r.purpose === 'contact_message', 1);
    advance(10 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toEqual([]);
    expect((await viewOf(alarm.alarmId)).history).toContain('Emergency numbers not called: the alarm was acknowledged');
  });

  it('resolving needs a verdict and a note, ends the alarm, and a second resolve is a 409', async () => {
    const { alarm } = await missedAlarm();
    const bad = await bus.request(
      'escalation.alarm.resolve.v1',
      { alarmId: alarm.alarmId, byUserId: 7, verdict: 'genuine', severity: 'minor' },
      5000,
    );
    expect(bad.err).toMatchObject({ status: 400, field: 'note' });
    const noVerdict = await bus.request(
      'escalation.alarm.resolve.v1',
      { alarmId: alarm.alarmId, byUserId: 7, verdict: 'maybe', note: 'x' },
      5000,
    );
    expect(noVerdict.err).toMatchObject({ status: 400, field: 'verdict' });

    const res = await rpc.send('escalation.alarm.resolve.v1', {
      alarmId: alarm.alarmId,
      byUserId: 7,
      verdict: 'false_alarm',
      reason: 'no_signal',
      note: 'Phone battery died; called him.',
    });
    expect(res.alarm).toMatchObject({
      state: 'resolved',
      resolvedBy: 7,
      acknowledgedBy: 7,
      verdict: 'false_alarm',
      reason: 'no_signal',
      note: 'Phone battery died; called him.',
    });
    expect(await events('escalation.alarm.resolved.v1', (e) => e.alarmId === alarm.alarmId)).toEqual([
      expect.objectContaining({ verdict: 'false_alarm', reason: 'no_signal', byUserId: 7 }),
    ]);
    const twice = rpc.send('escalation.alarm.resolve.v1', {
      alarmId: alarm.alarmId,
      byUserId: 8,
      verdict: 'genuine',
      severity: 'minor',
      note: 'again',
    });
    await expect(twice).rejects.toMatchObject({ status: 409 } satisfies Partial<RemoteError>);
    await expect(rpc.send('escalation.alarm.acknowledge.v1', { alarmId: randomUUID(), byUserId: 7 })).rejects.toMatchObject({
      status: 404,
    });

    advance(10 * MINUTE);
    await rpc.send('escalation.deadline.process_due.v1', {});
    expect(await requests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice')).toEqual([]);
    const open = await rpc.send('escalation.alarm.list.v1', { openOnly: true, limit: 500 });
    expect(open.alarms.map((a) => a.id)).not.toContain(alarm.alarmId);
  });

  it('the auditor repairs an on-shift worker with no deadline and raises a system alert', async () => {
    const w = await worker({ minutes: 30 });
    const gone = await worker({ minutes: 30 });
    await pg.query('delete from escalation.deadlines where job_key = any($1)', [[`checkin:${w.userId}`, `checkin:${gone.userId}`]]);
    // One of them is already overdue: its alarm opens at once.
    await pg.query('update escalation.workers set next_check_in_at = $2 where user_id = $1', [gone.userId, new Date(nowMs - MINUTE)]);
    const repaired = await svc.app.get(Auditor, { strict: false }).audit();
    expect(repaired.sort()).toEqual([w.userId, gone.userId].sort());
    expect(await deadline(w.userId)).toEqual({ step: 'reminder_5min', due_at: new Date(w.due - 5 * MINUTE) });
    const alerts = await events('escalation.system_alert.raised.v1', (a) => a.code === 'deadline_repaired');
    expect(alerts.map((a) => a.userId).sort()).toEqual([w.userId, gone.userId].sort());
    await alarmOf(gone.userId);
    expect(await svc.app.get(Auditor, { strict: false }).audit()).toEqual([]);
  });

  it('the auditor is not fooled by an older alarm still open: a worker who checked in late and lost the new deadline is repaired', async () => {
    const { w, alarm } = await missedAlarm();
    const next = nowMs + 60 * MINUTE;
    await publish('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: w.shiftId,
      userId: w.userId,
      location: 'Depot',
      checkedInAt: iso(nowMs),
      nextCheckInAt: iso(next),
    });
    await eventually(async () => (await deadline(w.userId))?.due_at.getTime() === next - 5 * MINUTE, 10_000, 20);
    // The missed check-in alarm stays open for a monitor; the new deadline's row is then lost.
    expect((await viewOf(alarm.alarmId)).state).not.toBe('resolved');
    await pg.query('delete from escalation.deadlines where job_key = $1', [`checkin:${w.userId}`]);

    expect(await svc.app.get(Auditor, { strict: false }).audit()).toEqual([w.userId]);
    expect(await deadline(w.userId)).toEqual({ step: 'reminder_5min', due_at: new Date(next - 5 * MINUTE) });
  });

  it('answers the deployment call settings, and is ready only while its scheduler runs', async () => {
    expect(await rpc.send('escalation.config.get.v1', {})).toEqual({
      emergencyNumbers: NUMBERS,
      callTimeoutSeconds: 60,
      acknowledgeWithinSeconds: 120,
      reminderMinutes: [5, 2],
    });
    const ready = await fetch(`${svc.url}/readyz`);
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks.scheduler).toBe('ok');
  });

  describe('teams: an alarm goes to its team, per the team policy frozen when it opens', () => {
    const TEAM_NUMBER = '+447911000099';
    let nextTeam = 900;

    async function admin(name: string): Promise<number> {
      const userId = nextUser++;
      await publish('identity.user.created.v1', { userId, username: `a${userId}`, name, role: 'admin', version: 1 });
      return userId;
    }

    async function away(userId: number, name: string, untilMs: number, version: number): Promise<void> {
      await publish('identity.user.updated.v1', { userId, name, role: 'admin', version, awayUntil: iso(untilMs) });
      await eventually(
        async () =>
          (await pg.query('select away_until from escalation.workers where user_id = $1', [userId])).rows[0]?.away_until?.getTime() ===
          untilMs,
        10_000,
        20,
      );
    }

    async function team(
      id: number,
      fields: { monitors: { userId: number; deputyUserId?: number }[]; policy?: object; numbers?: string[]; onCall?: object },
      version = 1,
    ): Promise<void> {
      await publish('identity.team.changed.v1', {
        change: version === 1 ? 'created' : 'updated',
        changedBy: 1,
        team: {
          id,
          name: `Team ${id}`,
          locationIds: [],
          monitors: fields.monitors,
          checkInPolicy: { defaultInterval: 60, allowedIntervals: [60] },
          ...(fields.policy ? { escalationPolicy: JSON.stringify(fields.policy) } : {}),
          ...(fields.onCall ? { onCallSchedule: JSON.stringify(fields.onCall) } : {}),
          emergencyNumbers: fields.numbers ?? [],
          memberCount: 1,
          version,
          createdAt: iso(nowMs),
          updatedAt: iso(nowMs),
        },
      });
      await eventually(
        async () => (await pg.query('select version from escalation.teams where id = $1', [id])).rows[0]?.version === version,
        10_000,
        20,
      );
    }

    /** The monitors pushed to by name, request by request (the worker's own push aside). */
    const pushedTo = async (alarmId: string) =>
      (await distinctRequests((r) => r.alarmId === alarmId && r.channel === 'push' && r.toUsers !== undefined)).flatMap(
        (r) => r.toUsers!.userIds,
      );
    const toEveryone = (alarmId: string) =>
      distinctRequests((r) => r.alarmId === alarmId && r.channel === 'push' && r.toRole === 'monitors');

    it("the first monitor is away: their deputy is told in their place with the team's other monitor, and the team's own number is called", async () => {
      const [first, deputy, second] = [await admin('Ann First'), await admin('Dee Deputy'), await admin('Bob Second')];
      const teamId = nextTeam++;
      await team(teamId, { monitors: [{ userId: first, deputyUserId: deputy }, { userId: second }], numbers: [TEAM_NUMBER] });
      await away(first, 'Ann First', nowMs + 8 * 3600_000, 2);
      const w = await worker({ minutes: 0.5, teamId });
      advance(MINUTE);
      const alarm = await alarmOf(w.userId);
      await eventually(async () => (await pushedTo(alarm.alarmId)).length >= 2, 10_000, 20);
      expect((await pushedTo(alarm.alarmId)).sort()).toEqual([deputy, second].sort());
      expect(await toEveryone(alarm.alarmId)).toEqual([]);
      const { rows } = await pg.query('select team_id, policy from escalation.alarms where id = $1', [alarm.alarmId]);
      expect(rows[0].team_id).toBe(teamId);
      expect(rows[0].policy.emergencyNumbers).toEqual([TEAM_NUMBER]);
      expect((await viewOf(alarm.alarmId)).history).toEqual(
        expect.arrayContaining([
          expect.stringContaining('Team monitors Dee Deputy (deputy for Ann First, away), Bob Second notified by push'),
        ]),
      );
      // The organisation's numbers wait for the acknowledgement window; the team's replaces them.
      advance(10 * MINUTE);
      await rpc.send('escalation.deadline.process_due.v1', {});
      const calls = await eventually(
        async () => {
          const found = await distinctRequests((r) => r.alarmId === alarm.alarmId && r.channel === 'voice');
          return found.length > 0 ? found : undefined;
        },
        10_000,
        20,
      );
      expect(calls.map((c) => c.toPhone)).toEqual([TEAM_NUMBER]);
      await rpc.send('escalation.alarm.resolve.v1', {
        alarmId: alarm.alarmId,
        byUserId: deputy,
        verdict: 'false_alarm',
        reason: 'no_signal',
        note: 'Test',
      });
    });

    it("a team with a rota: the alarm reaches the night layer's monitor on call, not the day monitor; an override takes effect for the next alarm", async () => {
      const [day, night, cover] = [await admin('Dan Day'), await admin('Nia Night'), await admin('Cy Cover')];
      const teamId = nextTeam++;
      // The night layer covers the test clock's hours, whatever they are: from an hour before now to three after, London time.
      const hhmm = (ms: number) =>
        new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
          new Date(ms),
        );
      const rota = (overrides: object[] = []) => ({
        timeZone: 'Europe/London',
        layers: [
          {
            name: 'Nights',
            start: '2020-01-06T00:00',
            rotation: 'weekly',
            userIds: [night],
            windows: [{ days: [1, 2, 3, 4, 5, 6, 7], from: hhmm(nowMs - 3600_000), to: hhmm(nowMs + 3 * 3600_000) }],
          },
          { name: 'Days', start: '2020-01-06T08:00', rotation: 'weekly', userIds: [day] },
        ],
        overrides,
      });
      const monitors = [{ userId: day }, { userId: night }, { userId: cover }];
      await team(teamId, { monitors, onCall: rota() });
      const w = await worker({ minutes: 0.5, teamId });
      advance(MINUTE);
      const alarm = await alarmOf(w.userId);
      await eventually(async () => (await pushedTo(alarm.alarmId)).length === 1, 10_000, 20);
      expect(await pushedTo(alarm.alarmId)).toEqual([night]);
      expect(await toEveryone(alarm.alarmId)).toEqual([]);
      const { rows } = await pg.query('select policy from escalation.alarms where id = $1', [alarm.alarmId]);
      expect(rows[0].policy.onCall.now).toMatchObject({ userId: night, layerName: 'Nights' });
      expect((await viewOf(alarm.alarmId)).history).toEqual(
        expect.arrayContaining([expect.stringContaining('On call (Nights), Nia Night, notified by push')]),
      );

      // Cy covers the night layer from now: the next alarm is Cy's; the one already open keeps Nia.
      const override = { id: randomUUID(), layer: 0, userId: cover, start: iso(nowMs - MINUTE), end: iso(nowMs + 3600_000) };
      await team(teamId, { monitors, onCall: rota([override]) }, 2);
      const next = await worker({ minutes: 0.5, teamId });
      advance(MINUTE);
      const nextAlarm = await alarmOf(next.userId);
      await eventually(async () => (await pushedTo(nextAlarm.alarmId)).length === 1, 10_000, 20);
      expect(await pushedTo(nextAlarm.alarmId)).toEqual([cover]);
      for (const a of [alarm, nextAlarm])
        await rpc.send('escalation.alarm.resolve.v1', {
          alarmId: a.alarmId,
          byUserId: day,
          verdict: 'false_alarm',
          reason: 'no_signal',
          note: 'Test',
        });
    });

    it("once a day the team's monitors and the superadmin are told of the next 48 hours' gaps in its rota, by push and SMS", async () => {
      const gail = nextUser++;
      await publish('identity.user.created.v1', {
        userId: gail,
        username: `a${gail}`,
        name: 'Gail Gap',
        role: 'admin',
        phone: '+447911000123',
        version: 1,
      });
      const boss = nextUser++;
      await publish('identity.user.created.v1', { userId: boss, username: `s${boss}`, name: 'Sue Super', role: 'superadmin', version: 1 });
      const teamId = nextTeam++;
      // A rota whose only layer begins in 2099: nobody is on call for the whole 48 hours.
      const rota = {
        timeZone: 'Europe/London',
        layers: [{ name: 'Days', start: '2099-01-05T08:00', rotation: 'weekly', userIds: [gail] }],
        overrides: [],
      };
      await team(teamId, { monitors: [{ userId: gail }], onCall: rota });
      await eventually(
        async () => (await pg.query('select 1 from escalation.workers where user_id = any($1)', [[gail, boss]])).rowCount === 2,
        10_000,
        20,
      );
      // Today's notice may have gone before this team existed: it goes again, as on a new day (the chore may be the one to send it).
      await pg.query('delete from escalation.on_call_notices');
      const notice = svc.app.get(OnCallGapNotice, { strict: false });
      await notice.run();
      const about = (r: Requested) => r.purpose === 'on_call_gaps' && r.body.includes(`Team ${teamId}`);
      const [push] = await eventually(
        async () => {
          const found = await distinctRequests((r) => about(r) && r.channel === 'push');
          return found.length > 0 ? found : undefined;
        },
        10_000,
        20,
      );
      expect(push.toUsers?.userIds.sort()).toEqual([gail, boss].sort());
      expect(push.title).toBe(`No on-call cover: Team ${teamId}`);
      // The gap runs the whole 48 hours from now, London time ("Mon 2 Jun, 13:00").
      const london = (ms: number) =>
        new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/London',
          weekday: 'short',
          day: 'numeric',
          month: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(ms));
      expect(push.body).toBe(
        `Nobody is on call for Team ${teamId} in the next 48 hours: ${london(nowMs)} to ${london(nowMs + 48 * 3600_000)}. Add cover in Super Admin, Teams.`,
      );
      expect(london(nowMs)).toMatch(/^\w{3} \d{1,2} \w{3}, \d\d:\d\d$/);
      const sms = await distinctRequests((r) => about(r) && r.channel === 'sms');
      expect(sms.map((r) => r.toPhone)).toEqual(['+447911000123']);
      // Once a day: another round the same day tells nobody again.
      expect(await notice.run()).toEqual([]);
      expect(await distinctRequests((r) => about(r) && r.channel === 'push')).toHaveLength(1);
    });

    it('a team policy runs monitor 1, then their deputy, then the organisation; a policy edited later applies to the next alarm only', async () => {
      const [first, deputy] = [await admin('Cat First'), await admin('Dan Deputy')];
      const teamId = nextTeam++;
      const stepwise = {
        missed_check_in: [
          { action: 'notify_monitor', position: 1, after: 0 },
          { action: 'notify_deputy', position: 1, after: 60 },
          { action: 'notify_organisation', after: 120 },
        ],
      };
      await team(teamId, { monitors: [{ userId: first, deputyUserId: deputy }], policy: stepwise });
      const w = await worker({ minutes: 0.5, teamId });
      advance(MINUTE);
      const alarm = await alarmOf(w.userId);
      await eventually(async () => (await pushedTo(alarm.alarmId)).length === 1, 10_000, 20);
      expect(await pushedTo(alarm.alarmId)).toEqual([first]);
      expect(await toEveryone(alarm.alarmId)).toEqual([]);

      // The superadmin edits the policy while the alarm runs: it keeps the one it opened with.
      await team(
        teamId,
        { monitors: [{ userId: first, deputyUserId: deputy }], policy: { missed_check_in: [{ action: 'notify_organisation', after: 0 }] } },
        2,
      );
      advance(MINUTE);
      await rpc.send('escalation.deadline.process_due.v1', {});
      await eventually(async () => (await pushedTo(alarm.alarmId)).length === 2, 10_000, 20);
      expect(await pushedTo(alarm.alarmId)).toEqual([first, deputy]);
      advance(MINUTE);
      await rpc.send('escalation.deadline.process_due.v1', {});
      await eventually(async () => (await toEveryone(alarm.alarmId)).length === 1, 10_000, 20);

      const next = await worker({ minutes: 0.5, teamId });
      advance(MINUTE);
      const nextAlarm = await alarmOf(next.userId);
      await eventually(async () => (await toEveryone(nextAlarm.alarmId)).length === 1, 10_000, 20);
      expect(await pushedTo(nextAlarm.alarmId)).toEqual([]);
      for (const a of [alarm, nextAlarm])
        await rpc.send('escalation.alarm.resolve.v1', {
          alarmId: a.alarmId,
          byUserId: first,
          verdict: 'false_alarm',
          reason: 'no_signal',
          note: 'Test',
        });
    });

    it("the monitors' pushes carry their title and text to translate, for notifications to write in each monitor's language", async () => {
      const monitor = await admin('Gwen Monitor');
      const teamId = nextTeam++;
      const onlyMonitors = {
        missed_check_in: [{ action: 'notify_monitors', after: 0 }],
        emergency: [{ action: 'notify_monitors', after: 0 }],
      };
      await team(teamId, { monitors: [{ userId: monitor }], policy: onlyMonitors });
      const london = (ms: number | string) =>
        new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
          new Date(ms),
        );
      const toMonitor = (alarmId: string) => (r: Requested) => r.alarmId === alarmId && r.channel === 'push' && r.toUsers !== undefined;

      // A missed check-in: its alarm's push, then (nobody acknowledged) the reminder that it is still open.
      const w = await worker({ minutes: 0.5, teamId });
      const name = `Worker ${w.userId}`;
      advance(MINUTE);
      const missed = await alarmOf(w.userId);
      const [told] = await expectRequests(toMonitor(missed.alarmId), 1);
      expect(told).toMatchObject({
        toUsers: { userIds: [monitor] },
        title: `Missed check-in: ${name}`,
        body: `${name} did not check in by ${london(w.due)} at Depot. Acknowledge the alarm in LWS.`,
        titleText: { text: 'Missed check-in: {{name}}', values: { name } },
        bodyText: {
          text: '{{name}} did not check in by {{time}} at {{location}}. Acknowledge the alarm in LWS.',
          values: { name, time: london(w.due), location: 'Depot' },
        },
      });
      expect(told.language).toBeUndefined();
      advance(5 * MINUTE);
      const [, reminded] = await expectRequests(toMonitor(missed.alarmId), 2);
      expect(reminded).toMatchObject({
        title: `Missed check-in: ${name}`,
        body: `Nobody has acknowledged the alarm for ${name} (opened ${london(missed.openedAt)}). Acknowledge it in LWS.`,
        titleText: { text: 'Missed check-in: {{name}}', values: { name } },
        bodyText: {
          text: 'Nobody has acknowledged the alarm for {{name}} (opened {{time}}). Acknowledge it in LWS.',
          values: { name, time: london(missed.openedAt) },
        },
      });

      // An emergency, whose steps run as it opens.
      const e = await worker({ teamId, start: false });
      await eventually(
        async () =>
          (await pg.query('select 1 from escalation.workers where user_id = $1 and team_id = $2', [e.userId, teamId])).rowCount === 1,
        10_000,
        20,
      );
      await publish('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: e.userId, location: 'Yard', raisedAt: iso(nowMs) });
      const emergency = await alarmOf(e.userId, 'emergency');
      const [help] = await expectRequests(toMonitor(emergency.alarmId), 1);
      expect(help).toMatchObject({
        title: `EMERGENCY: Worker ${e.userId}`,
        titleText: { text: 'EMERGENCY: {{name}}', values: { name: `Worker ${e.userId}` } },
        bodyText: {
          text: '{{name}} requested emergency assistance at {{location}} at {{time}}. Acknowledge the alarm in LWS.',
          values: { name: `Worker ${e.userId}`, location: 'Yard', time: london(nowMs) },
        },
      });
      for (const a of [missed, emergency])
        await rpc.send('escalation.alarm.resolve.v1', {
          alarmId: a.alarmId,
          byUserId: monitor,
          verdict: 'false_alarm',
          reason: 'no_signal',
          note: 'Test',
        });
    });

    it('a team whose every monitor is away with no deputy to stand in: the organisation is told, and the history says why', async () => {
      const only = await admin('Eve Only');
      const teamId = nextTeam++;
      await team(teamId, { monitors: [{ userId: only }] });
      await away(only, 'Eve Only', nowMs + 3600_000, 2);
      const w = await worker({ minutes: 0.5, teamId });
      advance(MINUTE);
      const alarm = await alarmOf(w.userId);
      await eventually(async () => (await toEveryone(alarm.alarmId)).length === 1, 10_000, 20);
      expect(await pushedTo(alarm.alarmId)).toEqual([]);
      expect((await viewOf(alarm.alarmId)).history).toEqual(
        expect.arrayContaining(['All monitors notified by push: every team monitor and deputy is away']),
      );
      await rpc.send('escalation.alarm.resolve.v1', {
        alarmId: alarm.alarmId,
        byUserId: only,
        verdict: 'false_alarm',
        reason: 'no_signal',
        note: 'Test',
      });
    });
  });
});
