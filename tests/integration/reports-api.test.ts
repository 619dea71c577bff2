import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, superadminOf, type Account } from './support/accounts';

/**
 * The alarm report through the gateway, with the whole stack on real PostgreSQL, NATS and Redis:
 * alarms come from the real flows (a check-in made due, an emergency call), monitors acknowledge
 * and resolve them with the test clock moved between, and the report and its CSV show the times.
 */

const EVENT_WAIT_MS = 30_000;
const SITE = 'The Prospect Building';

interface Alarm {
  id: string;
  userId: number;
  kind: 'missed_check_in' | 'emergency';
  openedAt: string;
  acknowledgedAt: string | null;
  resolvedAt: string | null;
}

describe('alarm reports API (real PostgreSQL, NATS, Redis; whole stack, test clock)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', LWS_TEST_CLOCK: '1', EMERGENCY_NUMBER_1: '+447911123456' } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
  }, 120_000);
  afterAll(() => t?.stop());

  const advance = (minutes: number) => superadmin.agent.post('/api/test-clock').set(XHR).send({ advanceMinutes: minutes }).expect(200);
  const serverNow = async () => new Date((await admin.agent.get('/api/test-clock').expect(200)).body.now as string);
  const londonMonth = (at: Date) => {
    const p = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit' })
        .formatToParts(at)
        .map((x) => [x.type, x.value]),
    );
    return `${p.year}-${p.month}`;
  };
  const alarmOf = (userId: number, kind: Alarm['kind']) =>
    eventually(
      async () =>
        ((await admin.agent.get('/api/alarms?open=false&limit=500').expect(200)).body as Alarm[]).find(
          (a) => a.userId === userId && a.kind === kind,
        ),
      EVENT_WAIT_MS,
      200,
    ) as Promise<Alarm>;
  const seconds = (from: string, to: string | null) => Math.round((Date.parse(to!) - Date.parse(from)) / 1000);

  async function onShift(): Promise<Account> {
    const w = await createAccount(t, admin.agent, 'worker');
    await eventually(
      async () => (await w.agent.post(`/api/users/${w.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    return w;
  }

  let missed: Alarm;
  let emergency: Alarm;

  it('reports a missed check-in acknowledged then resolved, and an emergency resolved at once, with their times', async () => {
    const w1 = await onShift();
    await superadmin.agent.post(`/api/simulate-check-in-due/${w1.id}`).set(XHR).expect(200);
    const opened = await alarmOf(w1.id, 'missed_check_in');

    await advance(1);
    const acked = await admin.agent.post(`/api/alarms/${opened.id}/acknowledge`).set(XHR).expect(200);
    await advance(4);
    missed = (
      await admin.agent
        .post(`/api/alarms/${opened.id}/resolve`)
        .set(XHR)
        .send({ verdict: 'false_alarm', reason: 'device', note: 'Phone battery died' })
        .expect(200)
    ).body;
    expect(missed.acknowledgedAt).toBe(acked.body.acknowledgedAt);

    const w2 = await onShift();
    await w2.agent.post('/api/emergency-call').set(XHR).send({ userId: w2.id, emergency: true }).expect(200);
    const raised = await alarmOf(w2.id, 'emergency');
    await advance(2);
    emergency = (
      await superadmin.agent
        .post(`/api/alarms/${raised.id}/resolve`)
        .set(XHR)
        .send({ verdict: 'genuine', severity: 'serious', note: 'Ambulance called' })
        .expect(200)
    ).body;

    // The clock has moved minutes, not months, but the alarms may straddle a month end if the test runs at one.
    for (const a of [missed, emergency]) {
      const res = await admin.agent.get(`/api/reports/alarms?month=${londonMonth(new Date(a.openedAt))}`).expect(200);
      const row = res.body.byKind.find((k: { kind: string }) => k.kind === a.kind);
      const ack = seconds(a.openedAt, a.acknowledgedAt);
      const resolve = seconds(a.openedAt, a.resolvedAt);
      expect(row).toEqual({
        kind: a.kind,
        count: 1,
        acknowledged: 1,
        resolved: 1,
        genuine: a.kind === 'emergency' ? 1 : 0,
        falseAlarm: a.kind === 'emergency' ? 0 : 1,
        falseReasons: { forgotCheckIn: 0, noSignal: 0, device: a.kind === 'emergency' ? 0 : 1, other: 0, notRecorded: 0 },
        test: 0,
        unresolved: 0,
        ackP50Seconds: ack,
        ackP90Seconds: ack,
        ackMaxSeconds: ack,
        resolveP50Seconds: resolve,
        resolveP90Seconds: resolve,
        resolveMaxSeconds: resolve,
      });
    }
    // What the monitors did shows: a minute to acknowledge, five to resolve; resolving the emergency acknowledged it.
    expect(seconds(missed.openedAt, missed.acknowledgedAt)).toBeGreaterThanOrEqual(60);
    expect(seconds(missed.openedAt, missed.resolvedAt)).toBeGreaterThanOrEqual(300);
    expect(seconds(emergency.openedAt, emergency.acknowledgedAt)).toBe(seconds(emergency.openedAt, emergency.resolvedAt));
    expect(seconds(emergency.openedAt, emergency.resolvedAt)).toBeGreaterThanOrEqual(120);
  });

  it('defaults to the current London month', async () => {
    const month = londonMonth(await serverNow());
    const res = await admin.agent.get('/api/reports/alarms').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ month, timezone: 'Europe/London' });
    expect(res.body).toEqual((await admin.agent.get(`/api/reports/alarms?month=${month}`).expect(200)).body);
  });

  it('totals every kind of the month over the alarms themselves', async () => {
    const month = londonMonth(new Date(missed.openedAt));
    const mine = [missed, emergency].filter((a) => londonMonth(new Date(a.openedAt)) === month);
    const res = await admin.agent.get(`/api/reports/alarms?month=${month}`).expect(200);
    expect(res.body.total).toMatchObject({
      kind: 'all',
      count: mine.length,
      acknowledged: mine.length,
      resolved: mine.length,
      genuine: mine.filter((a) => a === emergency).length,
      falseAlarm: mine.filter((a) => a === missed).length,
      unresolved: 0,
      ackMaxSeconds: Math.max(...mine.map((a) => seconds(a.openedAt, a.acknowledgedAt))),
      resolveMaxSeconds: Math.max(...mine.map((a) => seconds(a.openedAt, a.resolvedAt))),
    });
  });

  it('downloads the month as CSV: a header, one row per kind and the total', async () => {
    const month = londonMonth(new Date(missed.openedAt));
    const json = (await admin.agent.get(`/api/reports/alarms?month=${month}`).expect(200)).body;
    const res = await superadmin.agent.get(`/api/reports/alarms.csv?month=${month}`).buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="lws-alarms-${month}.csv"`);
    const cell = (v: number | null) => (v === null ? '' : String(v));
    const line = (r: Record<string, unknown>, team = '') =>
      [
        month,
        r.kind,
        ...[
          'count',
          'acknowledged',
          'resolved',
          'genuine',
          'falseAlarm',
          'falseReasons.forgotCheckIn',
          'falseReasons.noSignal',
          'falseReasons.device',
          'falseReasons.other',
          'falseReasons.notRecorded',
          'test',
          'unresolved',
          'ackP50Seconds',
          'ackP90Seconds',
          'ackMaxSeconds',
          'resolveP50Seconds',
          'resolveP90Seconds',
          'resolveMaxSeconds',
        ].map((k) => cell(k.split('.').reduce<unknown>((v, part) => (v as Record<string, unknown>)[part], r) as number | null)),
        team,
      ].join(',');
    // One team, "Default": its rows repeat the organisation's.
    expect(json.byTeam).toEqual([{ teamId: expect.any(Number), team: 'Default', byKind: json.byKind, total: json.total }]);
    expect(res.text.split('\r\n')).toEqual([
      'month,kind,alarms,acknowledged,resolved,genuine,false_alarm,false_forgot_check_in,false_no_signal,false_device,false_other,false_not_recorded,test,unresolved,ack_p50_s,ack_p90_s,ack_max_s,resolve_p50_s,resolve_p90_s,resolve_max_s,team',
      line(json.byKind[0]),
      line(json.byKind[1]),
      line(json.total),
      line(json.byKind[0], 'Default'),
      line(json.byKind[1], 'Default'),
      line(json.total, 'Default'),
      '',
    ]);
    expect(res.text).toContain(`${month},missed_check_in,`);
  });

  it('reports a month without alarms as zeros, with empty time cells in the CSV', async () => {
    const res = await admin.agent.get('/api/reports/alarms?month=2001-02').expect(200);
    expect(res.body.total).toEqual({
      kind: 'all',
      count: 0,
      acknowledged: 0,
      resolved: 0,
      genuine: 0,
      falseAlarm: 0,
      falseReasons: { forgotCheckIn: 0, noSignal: 0, device: 0, other: 0, notRecorded: 0 },
      test: 0,
      unresolved: 0,
      ackP50Seconds: null,
      ackP90Seconds: null,
      ackMaxSeconds: null,
      resolveP50Seconds: null,
      resolveP90Seconds: null,
      resolveMaxSeconds: null,
    });
    const csv = await admin.agent.get('/api/reports/alarms.csv?month=2001-02').buffer(true).expect(200);
    expect(csv.text.split('\r\n').slice(1, 4)).toEqual([
      '2001-02,missed_check_in,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,',
      '2001-02,emergency,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,',
      '2001-02,all,0,0,0,0,0,0,0,0,0,0,0,0,,,,,,,',
    ]);
  });

  it('records each outcome and its detail, and the figures add up: genuine, false by reason and test make the resolved', async () => {
    const month = londonMonth(await serverNow());
    const before = (await admin.agent.get(`/api/reports/alarms?month=${month}`).expect(200)).body;
    const outcomes = [
      { verdict: 'genuine', severity: 'critical' },
      { verdict: 'false_alarm', reason: 'forgot_check_in' },
      { verdict: 'false_alarm', reason: 'forgot_check_in' },
      { verdict: 'false_alarm', reason: 'no_signal' },
      { verdict: 'false_alarm', reason: 'other' },
      { verdict: 'test' },
    ];
    for (const outcome of outcomes) {
      const w = await onShift();
      await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
      const opened = await alarmOf(w.id, 'missed_check_in');
      const res = await admin.agent
        .post(`/api/alarms/${opened.id}/resolve`)
        .set(XHR)
        .send({ ...outcome, note: 'Checked' })
        .expect(200);
      expect(res.body).toMatchObject({ verdict: outcome.verdict, severity: outcome.severity ?? null, reason: outcome.reason ?? null });
    }
    // An outcome without its detail, or with another's, is refused by name and closes nothing.
    const w = await onShift();
    await superadmin.agent.post(`/api/simulate-check-in-due/${w.id}`).set(XHR).expect(200);
    const left = await alarmOf(w.id, 'missed_check_in');
    for (const [body, field, message] of [
      [{ verdict: 'false_alarm', note: 'x' }, 'reason', 'Choose why the alarm was false'],
      [{ verdict: 'genuine', note: 'x' }, 'severity', 'Choose how serious the incident was'],
      [{ verdict: 'test', reason: 'device', note: 'x' }, 'reason', 'Unknown field: reason'],
    ] as const) {
      expect((await admin.agent.post(`/api/alarms/${left.id}/resolve`).set(XHR).send(body).expect(400)).body).toEqual({ message, field });
    }
    const still = ((await admin.agent.get('/api/alarms?open=true&limit=500').expect(200)).body as Alarm[]).find((a) => a.id === left.id);
    expect(still?.resolvedAt).toBeNull();

    const after = (await admin.agent.get(`/api/reports/alarms?month=${month}`).expect(200)).body;
    const delta = (key: string) => after.total[key] - before.total[key];
    const reasons = (r: { falseReasons: Record<string, number> }) => r.falseReasons;
    expect({ genuine: delta('genuine'), falseAlarm: delta('falseAlarm'), test: delta('test') }).toEqual({
      genuine: 1,
      falseAlarm: 4,
      test: 1,
    });
    expect(reasons(after.total).forgotCheckIn - reasons(before.total).forgotCheckIn).toBe(2);
    expect(reasons(after.total).noSignal - reasons(before.total).noSignal).toBe(1);
    expect(reasons(after.total).other - reasons(before.total).other).toBe(1);
    // Every row, the organisation's and each team's, adds up.
    for (const row of [
      ...after.byKind,
      after.total,
      ...after.byTeam.flatMap((t: { byKind: unknown[]; total: unknown }) => [...t.byKind, t.total]),
    ]) {
      expect(row.genuine + row.falseAlarm + row.test).toBe(row.resolved);
      expect(Object.values(reasons(row)).reduce((a, b) => a + b, 0)).toBe(row.falseAlarm);
    }
    // The alarm's history says how it ended.
    const done = ((await admin.agent.get('/api/alarms?open=false&limit=500').expect(200)).body as (Alarm & { history: string[] })[]).filter(
      (a) => a.resolvedAt && a.history.some((h) => h.includes('(false alarm: forgot to check in)')),
    );
    expect(done.length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a bad month, or one more than a year ahead, with a 400 naming month (JSON and CSV)', async () => {
    const now = await serverNow();
    const ahead = (months: number) => {
      const [y, m] = londonMonth(now).split('-').map(Number);
      const i = y * 12 + m - 1 + months;
      return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
    };
    await admin.agent.get(`/api/reports/alarms?month=${ahead(12)}`).expect(200);
    for (const month of [ahead(13), '2025-13', '2025-1', 'April', '', '1999-12', '2025-04-01']) {
      for (const path of ['/api/reports/alarms', '/api/reports/alarms.csv']) {
        const res = await admin.agent.get(`${path}?month=${encodeURIComponent(month)}`).expect(400);
        expect(res.body).toEqual({ message: 'month must be a month as YYYY-MM, from 2000-01 to a year from now', field: 'month' });
      }
    }
  });
});
