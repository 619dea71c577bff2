// Emergencies pressed during to-person.mjs's flood of missed check-ins: workers who
// exist for the gateway (created, signed in, with an emergency contact, on shift through the API),
// each pressing the emergency button once at a time spread through the window, and how long from
// the press until the provider received the first SMS or call to that worker's contact.
const XHR = { 'X-Requested-With': 'XMLHttpRequest' };
const SITE = 'The Prospect Building';
const sleep = (ms) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

// Numbers apart from the flood's (+447911…), which to-person.mjs counts as the missed check-ins' SMS.
const workerPhoneOf = (k) => `+447922${100000 + k}`;
const contactPhoneOf = (k) => `+447944${100000 + k}`;

function client(url) {
  return async (path, { cookie, body, method = body !== undefined ? 'POST' : 'GET' } = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...XHR, ...(cookie ? { cookie } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, ok: res.ok, headers: res.headers, json: () => JSON.parse(text), text };
  };
}

/**
 * Creates `count` workers as the superadmin, signs each in (once: the gateway limits sign-ins per
 * address), adds one emergency contact as the worker and starts their shift (the deadline an hour
 * away), then waits until escalation's copy holds every one on shift with the contact, as an
 * emergency needs. Returns each worker's id, session cookie and the contact's number as escalation
 * holds it (which the provider will be asked to reach).
 */
export async function seedEmergencyWorkers({ url, adminCookie, count, tag, db, log }) {
  const api = client(url);
  const workers = [];
  for (let k = 0; k < count; k++) {
    const username = `sos${tag}${k}`;
    const password = 'Secret1pass';
    const created = await api('/api/users', {
      cookie: adminCookie,
      body: { username, password, name: `Bench Emergency ${k}`, phone: workerPhoneOf(k), role: 'worker' },
    });
    if (created.status !== 201) throw new Error(`create emergency worker ${k}: ${created.status} ${created.text}`);
    const id = created.json().user.id;
    const login = await api('/api/auth/login', { body: { username, password } });
    if (!login.ok) throw new Error(`login emergency worker ${k}: ${login.status} ${login.text}`);
    const cookie = login.headers.get('set-cookie').split(';')[0];
    const contact = await api('/api/emergency-contacts', {
      cookie,
      body: { userId: id, name: `Bench Contact ${k}`, phone: contactPhoneOf(k), relation: 'Partner' },
    });
    if (contact.status !== 201) throw new Error(`emergency contact of worker ${k}: ${contact.status} ${contact.text}`);
    // Shifts hears of the new worker from identity's event; until then it refuses the shift.
    for (let tries = 0; ; tries++) {
      const started = await api(`/api/users/${id}/start-shift`, { cookie, body: { location: SITE } });
      if (started.ok) break;
      if (tries >= 100) throw new Error(`start shift of emergency worker ${k}: ${started.status} ${started.text}`);
      await sleep(100);
    }
    workers.push({ k, id, cookie, contactInput: contactPhoneOf(k) });
  }
  if (count === 0) return workers;
  const ids = workers.map((w) => w.id);
  for (const started = Date.now(); ; await sleep(200)) {
    const { rows } = await db.query(
      `SELECT w.user_id, c.phone FROM escalation.workers w JOIN escalation.worker_contacts c ON c.user_id = w.user_id AND NOT c.deleted
        WHERE w.user_id = ANY($1::int[]) AND w.on_shift`,
      [ids],
    );
    if (rows.length === count) {
      const phoneOf = new Map(rows.map((r) => [r.user_id, r.phone]));
      for (const w of workers) w.contact = phoneOf.get(w.id);
      break;
    }
    if (Date.now() - started > 60_000)
      throw new Error(`escalation holds ${rows.length} of ${count} emergency workers on shift with their contact after 60 s`);
  }
  log(`${count} emergency workers signed in, on shift, their contacts known to escalation`);
  return workers;
}

/**
 * Presses each worker's emergency button at its time (`pressAtMs[k]`, wall clock), without waiting
 * for the presses before it. Resolves when every press has been answered.
 */
export function pressEmergencies({ url, workers, pressAtMs }) {
  const api = client(url);
  return Promise.all(
    workers.map(async (w, k) => {
      await sleep(pressAtMs[k] - Date.now());
      w.pressedAt = Date.now();
      try {
        const res = await api('/api/emergency-call', { cookie: w.cookie, body: { userId: w.id, emergency: true } });
        w.answeredAt = Date.now();
        w.status = res.status;
        if (!res.ok) w.error = res.text.slice(0, 200);
      } catch (err) {
        w.answeredAt = Date.now();
        w.status = 0;
        w.error = String(err);
      }
    }),
  );
}

/** Whether every pressed emergency has reached the provider (an SMS or a call to its contact). */
export const allReached = (workers, provider) =>
  workers.every((w) => w.pressedAt !== undefined && [...provider.messages, ...provider.calls].some((m) => m.to === w.contact));

/**
 * Per emergency: press to the gateway's answer, to the alarm opened (escalation's outbox), to the
 * alarm on the admin's live stream and to the first SMS or call to the contact at the provider.
 * Duplicated: more than one SMS, or more than one call, to the contact (an emergency texts every
 * contact and calls the primary one, so one of each is expected).
 */
export function summarizeEmergencies({ workers, provider, openedAt, onStream, stats }) {
  const per = workers.map((w) => {
    const texts = provider.messages.filter((m) => m.to === w.contact).map((m) => Date.parse(m.createdAt));
    const calls = provider.calls.filter((c) => c.to === w.contact).map((c) => Date.parse(c.createdAt));
    const first = Math.min(...texts, ...calls);
    const since = (at) => (w.pressedAt !== undefined && Number.isFinite(at) ? at - w.pressedAt : undefined);
    return {
      userId: w.id,
      status: w.status,
      ...(w.error ? { error: w.error } : {}),
      pressedAt: w.pressedAt,
      answeredMs: w.status >= 200 && w.status < 300 ? since(w.answeredAt) : undefined,
      openedMs: since(openedAt.get(w.id)),
      streamMs: since(onStream.get(w.id)),
      providerMs: since(first),
      firstBy: Number.isFinite(first) ? (texts.includes(first) ? 'sms' : 'call') : undefined,
      texts: texts.length,
      calls: calls.length,
      duplicated: texts.length > 1 || calls.length > 1,
    };
  });
  const row = (what, key) => {
    const seen = per.filter((e) => e[key] !== undefined);
    return {
      what,
      seen: seen.length,
      missed: per.length - seen.length,
      duplicated: key === 'providerMs' ? per.filter((e) => e.duplicated).length : 0,
      latenessMs: stats(seen.map((e) => e[key])),
    };
  };
  return {
    per,
    rows: [
      row('gateway answered', 'answeredMs'),
      row('alarm opened (escalation)', 'openedMs'),
      row("admin's live stream", 'streamMs'),
      row('first SMS or call to the contact', 'providerMs'),
    ],
  };
}

/**
 * Where each emergency's time went, hop by hop, from the rows the services wrote (ms from the press;
 * a consumer's time is its transaction's start): shifts' raise written and published, escalation's
 * consumer, the alarm opened, its urgent request written and published, notifications' consumer,
 * the delivery row, and the provider. Read before the database is dropped.
 */
export async function emergencyHops({ db, workers, provider }) {
  if (workers.length === 0) return [];
  const { rows } = await db.query(
    `SELECT (so.payload->'data'->>'userId')::int AS user_id,
            so.created_at AS raise_written, so.published_at AS raise_published,
            ep.processed_at AS escalation_took,
            a.opened_at AS alarm_opened,
            eo.created_at AS request_written, eo.published_at AS request_published,
            np.processed_at AS notifications_took,
            d.created_at AS delivery_written
       FROM shifts.outbox so
       LEFT JOIN escalation.processed_events ep ON ep.event_id = so.id AND ep.consumer = 'escalation-shifts'
       LEFT JOIN escalation.alarms a ON a.emergency_id = (so.payload->'data'->>'emergencyId')::uuid
       LEFT JOIN LATERAL (SELECT id, created_at, published_at FROM escalation.outbox o
                           WHERE o.subject = 'escalation.notification.urgent.v1' AND o.payload->'data'->'request'->>'alarmId' = a.id::text
                           ORDER BY o.seq LIMIT 1) eo ON true
       LEFT JOIN notifications.processed_events np ON np.event_id = eo.id AND np.consumer = 'notifications-notification-requests-urgent'
       LEFT JOIN LATERAL (SELECT min(created_at) AS created_at FROM notifications.deliveries d WHERE d.alarm_id = a.id) d ON true
      WHERE so.subject = 'shifts.emergency.raised.v1' AND (so.payload->'data'->>'userId')::int = ANY($1::int[])`,
    [workers.map((w) => w.id)],
  );
  const byUser = new Map(rows.map((r) => [r.user_id, r]));
  const HOPS = [
    'raise_written',
    'raise_published',
    'escalation_took',
    'alarm_opened',
    'request_written',
    'request_published',
    'notifications_took',
    'delivery_written',
  ];
  return workers.map((w) => {
    const r = byUser.get(w.id) ?? {};
    const at = Object.fromEntries(HOPS.map((h) => [h, r[h] ? new Date(r[h]).getTime() - w.pressedAt : undefined]));
    const sent = [...provider.messages, ...provider.calls].filter((m) => m.to === w.contact).map((m) => Date.parse(m.createdAt));
    return { userId: w.id, ...at, provider: sent.length > 0 ? Math.min(...sent) - w.pressedAt : undefined };
  });
}
