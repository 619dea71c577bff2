import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { InProcessBus } from '@lws/messaging';
import { createLogger, startService, type RunningService } from '@lws/platform';
import { escalationService } from '@lws/escalation';
import { createTestDatabase, eventually, type TestDatabase } from '@lws/testing';

/**
 * Two escalation replicas on one database, their schedulers racing over the same due rows:
 * every step fires exactly once (FOR UPDATE SKIP LOCKED and the fencing version).
 */

const WORKERS = 150;
const MINUTE = 60_000;

describe('two escalation schedulers on one database (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pg: Client;
  const replicas: RunningService[] = [];
  const buses: InProcessBus[] = [];
  const T = Date.parse('2025-06-02T12:00:00.000Z');
  let nowMs = T - 30 * MINUTE;

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let i = 0; i < 2; i++) {
      const bus = new InProcessBus({ logger: createLogger('bus', 'silent') });
      buses.push(bus);
      replicas.push(
        await startService(escalationService, {
          env: {
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            DATABASE_URL: db.url,
            HEALTH_PORT: '0',
            ESCALATION_TICK_MS: '10',
            ESCALATION_BATCH_SIZE: '7',
            ESCALATION_AUDIT_INTERVAL_SECONDS: '3600',
          },
          inProcessBus: bus,
          clock: () => new Date(nowMs),
        }),
      );
    }
    pg = new Client({ connectionString: db.url });
    await pg.connect();
  }, 60_000);

  afterAll(async () => {
    await pg?.end();
    for (const r of replicas) await r.close();
    for (const b of buses) await b.close();
    await db?.drop();
  });

  it('fires each reminder, each alarm and each alarm step once, whichever replica claims it', async () => {
    const due = new Date(T).toISOString();
    for (let u = 1; u <= WORKERS; u++) {
      const shiftId = randomUUID();
      await pg.query(
        `insert into escalation.workers (user_id, name, phone, on_shift, shift_id, location, next_check_in_at, deadline_as_of)
         values ($1, $2, $3, true, $4, 'Depot', $5, $6)`,
        [u, `Worker ${u}`, `+4479112${String(u).padStart(5, '0')}`, shiftId, due, new Date(T - 60 * MINUTE)],
      );
      await pg.query(
        `insert into escalation.deadlines (job_key, kind, user_id, step, due_at, version, payload) values ($1, 'checkin', $2, 'reminder_5min', $3, 1, $4)`,
        [`checkin:${u}`, u, new Date(T - 5 * MINUTE), JSON.stringify({ dueAt: due, shiftId })],
      );
    }
    const count = async (q: string) => Number((await pg.query(q)).rows[0].n);

    nowMs = T - 5 * MINUTE + 1000;
    await eventually(
      async () => (await count(`select count(*) n from escalation.deadlines where step = 'reminder_2min'`)) === WORKERS,
      30_000,
      50,
    );
    nowMs = T + 1000;
    // Each alarm runs notify_worker and notify_monitors at once, then waits for the call step.
    await eventually(
      async () =>
        (await count(`select count(*) n from escalation.outbox where subject = 'escalation.alarm.escalated.v1'`)) >= 2 * WORKERS &&
        (await count(
          `select count(*) n from escalation.deadlines where kind = 'alarm' and step = 'step' and (payload->>'index')::int = 2`,
        )) === WORKERS,
      30_000,
      50,
    );

    const { rows } = await pg.query(`select subject, payload->'data' as d from escalation.outbox`);
    const data = (subject: string) => rows.filter((r) => r.subject === subject).map((r) => r.d);
    const requests = data('escalation.notification.requested.v1');
    expect(new Set(requests.map((r) => r.requestId)).size).toBe(requests.length);

    const perKey = new Map<string, number>();
    const bump = (k: string) => perKey.set(k, (perKey.get(k) ?? 0) + 1);
    for (const r of requests) bump(`${r.userId}:${r.purpose}:${r.channel}:${r.toRole ?? ''}`);
    for (const e of data('escalation.reminder.fired.v1')) bump(`${e.userId}:fired:${e.minutesBefore}`);
    for (const e of data('escalation.alarm.opened.v1')) bump(`${e.userId}:opened`);
    for (const e of data('escalation.alarm.escalated.v1')) bump(`${e.alarmId}:step:${e.step}`);
    expect([...perKey.values()].every((n) => n === 1)).toBe(true);
    // Per worker: the 5 minute reminder (SMS, push, fired event); the 2 minute one was claimed after T, so it gave way
    // to the missed check-in; the alarm, its worker notice (push, SMS), monitors' push, and two escalated steps.
    expect(perKey.size).toBe(WORKERS * (3 + 1 + 2 + 1 + 2));
    expect(data('escalation.reminder.fired.v1').filter((e) => e.minutesBefore === 2)).toEqual([]);
  }, 90_000);
});
