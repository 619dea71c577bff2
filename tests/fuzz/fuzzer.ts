import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { Client } from 'pg';
import { z } from 'zod';

/**
 * A seeded fuzzer for the gateway's public API. From the routes the gateway serves and the zod
 * schemas at its edge it builds a valid request, breaks it one way (a field missing, extra, of the
 * wrong type, at or past a boundary, with NUL, control or bidi text, nested deep; a body of the
 * wrong type, content type, charset or encoding, or too large; a path spelled in another case,
 * with a trailing slash, encoded characters or a traversal; no CSRF header or a foreign Origin)
 * and sends it as one of anonymous, worker, admin, superadmin or a kiosk. It checks:
 * - no answer is a 5xx;
 * - a rejected request (4xx) changed no row of any service (row counts and checksums of every
 *   table, before and after);
 * - how long each answer took (the long run holds it to 1 s; the suite only reports it).
 */

export type Role = 'anonymous' | 'worker' | 'admin' | 'superadmin' | 'kiosk';
export const FUZZ_ROLES: Role[] = ['anonymous', 'worker', 'admin', 'superadmin', 'kiosk'];

export interface Route {
  method: string;
  path: string;
}

export interface FuzzContext {
  url: string;
  db: Client;
  /** Cookie header per role ('' for anonymous). */
  cookies: Record<Role, string>;
  /** The user id each signed-in role acts as. */
  ids: Record<'worker' | 'admin' | 'superadmin', number>;
  /** Users the fuzzer may delete or reset (never the fixtures it acts as). */
  victims: number[];
  routes: Route[];
  bodies: Record<string, z.ZodTypeAny[]>;
  queries: Record<string, z.ZodTypeAny>;
  seed: number;
  requests: number;
  /** Tables (schema.table) or columns (schema.table.column) a rejected request may change by design, with the reason. */
  mayChange: Record<string, string>;
  /** Events a rejected request may publish by design (a failed sign-in), with the reason. */
  mayEmit: Record<string, string>;
  /**
   * Tables a rejected request to the routes matched (by "METHOD /path" as served) may change by
   * design: the effects of an allowed event that its consumer may write before the fuzzer looks.
   */
  mayChangeOn?: { route: RegExp; tables: string[]; why: string }[];
  onProgress?: (done: number) => void;
}

export interface Finding {
  kind: '5xx' | 'state changed' | 'no answer';
  request: string;
  status?: number;
  detail: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  byMutation: Record<string, number>;
  findings: Finding[];
  /** Slowest answers, slowest first. */
  slowest: { request: string; ms: number; status: number }[];
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Routes a fuzzer must not call as written, and why. */
export const UNFUZZED: Record<string, string> = {
  'GET /api/events': 'a live stream: it answers at once and stays open (tests/integration/live.test.ts covers its input)',
  'POST /api/auth/logout': 'would end the session the fuzzer acts in',
  'POST /api/auth/change-password': 'would change the password of the account the fuzzer acts as',
  'POST /api/test-clock': 'moves the service clock: escalation would fire deadlines while the fuzzer compares tables',
};

/** Routes sent only broken: a valid call starts timed escalation (an alarm now) that writes while tables are compared. */
const BROKEN_ONLY = new Set([
  'POST /api/simulate-specific-time/:id',
  'POST /api/simulate-check-in-due/:id',
  'POST /api/reset-check-in-timer/:id',
  'POST /api/emergency-call',
  'POST /api/test-reminders/send-test-5min',
  'POST /api/test-reminders/send-test-2min',
  'POST /api/test-whatsapp-reminders/:userId',
  'POST /api/test-provider/calls/:callSid/accept',
  'POST /api/test-provider/calls/:callSid/ignore',
]);

// ---------------------------------------------------------------------------------------------
// Valid values from a schema

function unwrap(schema: z.ZodTypeAny): z.ZodTypeAny {
  let s = schema;
  for (;;) {
    const def = s._def as { typeName?: string; innerType?: z.ZodTypeAny; schema?: z.ZodTypeAny; in?: z.ZodTypeAny };
    if (def.typeName === 'ZodOptional' || def.typeName === 'ZodNullable' || def.typeName === 'ZodDefault') s = def.innerType!;
    else if (def.typeName === 'ZodEffects') s = def.schema!;
    else if (def.typeName === 'ZodPipeline') s = def.in!;
    else return s;
  }
}

function isOptional(schema: z.ZodTypeAny): boolean {
  return schema.safeParse(undefined).success;
}

/** A value each field name takes, valid at the edge. */
function example(field: string, ctx: Pick<FuzzContext, 'ids'>, role: Role, n: number): unknown {
  const own = role === 'worker' || role === 'admin' || role === 'superadmin' ? ctx.ids[role] : ctx.ids.worker;
  const p256dh = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
  const values: Record<string, unknown> = {
    username: `fuzz-${n}`,
    password: 'Secret123',
    currentPassword: 'Secret123',
    newPassword: 'Secret124',
    name: `Fuzz Name ${n}`,
    phone: '+447911123456',
    phoneNumber: '+447911123456',
    primaryContact: '+447911123457',
    secondaryContact: '+447911123458',
    pin: '1234',
    pinCode: '1234',
    currentPin: '1234',
    location: 'Fuzz Depot',
    userId: own,
    relation: 'family',
    medicalInfo: 'none',
    endpoint: `https://fcm.googleapis.com/fcm/send/fuzz-${n}`,
    keys: { p256dh, auth: Buffer.alloc(16, 3).toString('base64url') },
    note: 'fuzz',
    minutesUntilDue: 30,
    details: 'fuzz',
    type: 'check_in',
    checkInInterval: 60,
    isActive: true,
    emergency: true,
    role: 'worker',
    rememberMe: false,
    fromKiosk: false,
    advanceMinutes: 1,
  };
  return values[field];
}

export function sample(schema: z.ZodTypeAny, field: string, ctx: Pick<FuzzContext, 'ids'>, role: Role, n: number): unknown {
  const known = example(field, ctx, role, n);
  if (known !== undefined) return known;
  const s = unwrap(schema);
  const def = s._def as { typeName: string; values?: unknown[]; value?: unknown; options?: z.ZodTypeAny[] };
  switch (def.typeName) {
    case 'ZodObject':
      return sampleObject(s as z.AnyZodObject, ctx, role, n);
    case 'ZodString':
      return 'fuzz';
    case 'ZodNumber':
      return 1;
    case 'ZodBoolean':
      return true;
    case 'ZodEnum':
      return def.values![0];
    case 'ZodLiteral':
      return def.value;
    case 'ZodUnion':
      return sample(def.options![0], field, ctx, role, n);
    default:
      return undefined;
  }
}

function sampleObject(schema: z.AnyZodObject, ctx: Pick<FuzzContext, 'ids'>, role: Role, n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodTypeAny>)) {
    const v = sample(field, key, ctx, role, n);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Field names of a body schema, with whether each is optional and its largest length. */
function fieldsOf(schema: z.ZodTypeAny): { name: string; optional: boolean; max?: number }[] {
  const s = unwrap(schema);
  if ((s._def as { typeName: string }).typeName !== 'ZodObject') return [];
  return Object.entries((s as z.AnyZodObject).shape as Record<string, z.ZodTypeAny>).map(([name, field]) => {
    const inner = unwrap(field)._def as { typeName: string; checks?: { kind: string; value: number }[] };
    const max = inner.typeName === 'ZodString' ? inner.checks?.find((c) => c.kind === 'max')?.value : undefined;
    return { name, optional: isOptional(field), max };
  });
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Built {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  mutation: string;
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202Eevil',
  'x\u2066y\u2069',
  '\u0007\u001b[31m',
  '\ud800',
  '😀'.repeat(50),
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '\r\nX-Injected: 1',
];
const NASTY_NUMBERS: unknown[] = [0, -1, 1.5, 2 ** 31, 2 ** 53, -(2 ** 31) - 1, 1e308, '1e3', '0x10', 'NaN', '', ' 1 ', true, null, [], {}];
const NASTY_IDS = [
  '0',
  '-1',
  'abc',
  '1e3',
  '%00',
  '9'.repeat(30),
  '..%2f..%2f',
  '1%20OR%201=1',
  '%2e%2e',
  '1.5',
  '00000000-0000-0000-0000-000000000000',
  'CA00000000000000000000000000000000',
];

function deep(levels: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < levels; i++) v = { a: v };
  return v;
}

function mixedCase(path: string, rnd: () => number): string {
  return path.replace(/[a-z]/g, (c) => (rnd() < 0.4 ? c.toUpperCase() : c));
}

function pick<T>(rnd: () => number, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)];
}

function fillPath(route: Route, ctx: FuzzContext, role: Role, rnd: () => number, broken: boolean): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_m, param: string) => {
    if (broken && rnd() < 0.5) return pick(rnd, NASTY_IDS);
    if (param === 'callSid') return `CA${'0'.repeat(32)}`;
    const destructive = /DELETE \/api\/users|reset-password/.test(`${route.method} ${route.path}`);
    const own = role === 'worker' || role === 'admin' || role === 'superadmin' ? ctx.ids[role] : ctx.ids.worker;
    const choices = destructive ? [...ctx.victims, 987654] : [own, ctx.ids.worker, ...ctx.victims, 987654];
    if (param === 'id' && /alarms|dead-letters/.test(route.path)) return pick(rnd, ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']);
    return String(pick(rnd, choices));
  });
}

/** One request: a valid one for the route, broken in one way chosen by `rnd`. */
export function buildRequest(route: Route, role: Role, ctx: FuzzContext, rnd: () => number, n: number): Built {
  const key = `${route.method} ${route.path}`;
  const schemas = ctx.bodies[key];
  const schema = schemas ? pick(rnd, schemas) : undefined;
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };
  let body: unknown = schema ? sample(schema, '', ctx, role, n) : route.method === 'GET' ? undefined : {};
  let raw: Buffer | undefined;
  let contentType = 'application/json';
  let query = '';
  const kinds = [
    'valid',
    'missing field',
    'extra field',
    'wrong type',
    'long text',
    'nasty text',
    'nasty number',
    'deep',
    'body type',
    'content',
    'path',
    'query',
    'csrf',
  ];
  const fields = schema ? fieldsOf(schema) : [];
  // A timed route gets only what is refused whatever else the request holds: no CSRF header, or
  // (with a schema) a field it does not take, a body of the wrong type, nesting past the limit, a
  // required field missing. A path or query mutation can still succeed (routing ignores case).
  const alwaysRefused = schema
    ? ['csrf', 'extra field', 'body type', 'deep', ...(fields.some((f) => !f.optional) ? ['missing field'] : [])]
    : ['csrf'];
  let mutation = pick(rnd, BROKEN_ONLY.has(key) ? alwaysRefused : kinds);
  const record = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const field = fields.length ? pick(rnd, fields) : undefined;
  let path = fillPath(route, ctx, role, rnd, mutation === 'path');
  const bodyTypes: unknown[] = BROKEN_ONLY.has(key) ? [[], null, 'text', 42, true, [{}]] : [[], null, 'text', 42, true, [{}], { '': '' }];

  switch (mutation) {
    case 'missing field': {
      const required = fields.filter((f) => !f.optional);
      if (record && required.length) delete record[pick(rnd, required).name];
      else mutation = 'body type';
      break;
    }
    case 'extra field':
      // An own "__proto__" key, as JSON.parse makes it (assignment would set the prototype instead).
      if (record) {
        // Timed routes get only names no schema takes (a snake_case twin of a sent field is dropped, not refused).
        const names = BROKEN_ONLY.has(key)
          ? ['isAdmin', '__proto__', 'pinHash', 'x'.repeat(300)]
          : ['isAdmin', 'role', 'id', '__proto__', 'constructor', 'user_id', 'pinHash', 'x'.repeat(300)];
        Object.defineProperty(record, pick(rnd, names), {
          value: pick(rnd, [true, 1, 'superadmin', { polluted: true }, { userId: 1, role: 'superadmin' }]),
          enumerable: true,
          configurable: true,
          writable: true,
        });
      } else body = { isAdmin: true };
      break;
    case 'wrong type':
      if (record && field) record[field.name] = pick(rnd, [123, -1, true, null, [], {}, ['a'], { $gt: '' }, 'string']);
      else body = pick(rnd, [[], 'text', 42, null]);
      break;
    case 'long text':
      if (record && field) record[field.name] = 'x'.repeat(pick(rnd, [(field.max ?? 100) + 1, field.max ?? 100, 5000, 90_000]));
      else body = { x: 'x'.repeat(90_000) };
      break;
    case 'nasty text':
      if (record && field) record[field.name] = pick(rnd, NASTY_STRINGS);
      else body = { name: pick(rnd, NASTY_STRINGS) };
      break;
    case 'nasty number':
      if (record && field) record[field.name] = pick(rnd, NASTY_NUMBERS);
      else body = { userId: pick(rnd, NASTY_NUMBERS) };
      break;
    case 'deep':
      // Past the 16-level limit in every case.
      if (record && field) record[field.name] = deep(pick(rnd, [20, 200, 3000]));
      else body = deep(pick(rnd, [20, 200, 3000]));
      break;
    case 'body type':
      body = pick(rnd, bodyTypes);
      break;
    case 'content': {
      const json = Buffer.from(JSON.stringify(body ?? {}));
      const variant = pick(rnd, ['form', 'text', 'charset', 'gzip-broken', 'encoding', 'huge', 'bad-json', 'multipart', 'gzip-ok']);
      if (variant === 'form') {
        contentType = 'application/x-www-form-urlencoded';
        raw = Buffer.from(new URLSearchParams(Object.entries(record ?? {}).map(([k, v]) => [k, String(v)])).toString());
      } else if (variant === 'text') {
        contentType = 'text/plain';
        raw = json;
      } else if (variant === 'charset') {
        contentType = `application/json; charset=${pick(rnd, ['foo', 'utf-7', 'latin1', 'utf-16'])}`;
        raw = json;
      } else if (variant === 'gzip-broken') {
        headers['content-encoding'] = 'gzip';
        const gz = gzipSync(json);
        raw = gz.subarray(0, Math.max(1, gz.length - 6));
      } else if (variant === 'gzip-ok') {
        headers['content-encoding'] = 'gzip';
        raw = gzipSync(json);
      } else if (variant === 'encoding') {
        headers['content-encoding'] = pick(rnd, ['x-unknown', 'compress', 'gzip, br, zstd, deflate']);
        raw = json;
      } else if (variant === 'huge') {
        raw = Buffer.from(JSON.stringify({ ...(record ?? {}), pad: 'x'.repeat(150_000) }));
      } else if (variant === 'bad-json') {
        raw = Buffer.from(pick(rnd, ['{', '{"a":1,}', '\u0000', '{"a":"\\ud800"}', 'null', '[1,2', '{"a":1}{"b":2}']));
      } else {
        contentType = 'multipart/form-data; boundary=x';
        raw = Buffer.from('--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nfuzz\r\n--x--\r\n');
      }
      mutation = `content:${variant}`;
      break;
    }
    case 'path':
      path = pick(rnd, [
        mixedCase(path, rnd),
        `${path}/`,
        path.replace('/api/', '/api//'),
        path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
        `${path}%00`,
        `${path}/..%2f..%2f`,
        `${path}?${'a=1&'.repeat(2000)}`,
      ]);
      break;
    case 'query': {
      const q = ctx.queries[key];
      const names = q ? fieldsOf(q).map((f) => f.name) : ['limit', 'cursor', 'userId', 'month'];
      const name = pick(rnd, [...names, 'x']);
      query = `?${encodeURIComponent(name)}=${pick(rnd, ['-1', '0', 'abc', '%00', '1e400', '9'.repeat(40), '%E2%80%AE', '', 'x'.repeat(5000), '1&limit=2', '%ZZ', '2025-13'])}`;
      break;
    }
    case 'csrf':
      if (rnd() < 0.5) delete headers['x-requested-with'];
      // biome-ignore lint/suspicious/noDuplicateElseIf: each rnd() is a new draw; this one splits the other half.
      else if (rnd() < 0.5) headers.origin = pick(rnd, ['https://evil.example', 'null']);
      else headers['sec-fetch-site'] = pick(rnd, ['cross-site', 'same-site']);
      break;
  }
  if (route.method !== 'GET' && route.method !== 'DELETE' && raw === undefined)
    raw = Buffer.from(body === undefined ? '' : JSON.stringify(body));
  if (raw !== undefined) {
    headers['content-type'] = contentType;
    headers['content-length'] = String(raw.length);
  }
  if (ctx.cookies[role]) headers.cookie = ctx.cookies[role];
  return { method: route.method, path: `${path}${query}`, headers, body: raw, mutation };
}

function send(url: string, built: Built, timeoutMs: number): Promise<{ status: number; ms: number; text: string }> {
  const target = new URL(url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method: built.method, path: built.path, headers: built.headers, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            text: Buffer.concat(chunks).toString('utf8').slice(0, 300),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    if (built.body) req.end(built.body);
    else req.end();
  });
}

// ---------------------------------------------------------------------------------------------
// State

/** Tables that change by themselves (publishing, consuming, leases): compared by row count only. */
const COUNT_ONLY = /\.(outbox|processed_events|leases)$/;
/** A snapshot entry that only says whether to wait for the stack to settle, never a finding. */
const SETTLE_ONLY = ' (events allowed)';

/**
 * Row count and checksum of every table of every service, in one round trip. An outbox counts
 * only the events a rejected request may not publish; those it may are counted apart, so their
 * effects elsewhere (the audit log) are waited for rather than reported.
 */
export async function snapshot(
  db: Client,
  skip: Record<string, string>,
  allowed: Record<string, string> = {},
): Promise<Map<string, string>> {
  const subjects = Object.keys(allowed).map((s) => `'${s.replace(/'/g, "''")}'`);
  const notAllowed = subjects.length ? ` filter (where subject not in (${subjects.join(', ')}))` : '';
  const { rows: tables } = await db.query<{ name: string }>(
    `select table_schema || '.' || table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema', 'drizzle') order by 1`,
  );
  // `schema.table.column` entries leave one column out of the table's checksum.
  const columnsOut = new Map<string, string[]>();
  for (const key of Object.keys(skip)) {
    const [schema, table, column] = key.split('.');
    if (column) columnsOut.set(`${schema}.${table}`, [...(columnsOut.get(`${schema}.${table}`) ?? []), column]);
  }
  const parts = tables
    .filter((t) => !(t.name in skip))
    .map(({ name }) => {
      const [schema, table] = name.split('.');
      const ref = `"${schema}"."${table}"`;
      const out = columnsOut.get(name);
      if (out) {
        const row = `(to_jsonb(t) - ${out.map((c) => `'${c}'`).join(' - ')})::text`;
        return `select '${name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(md5(${row}), '' order by md5(${row}))), '') as sum from ${ref} t`;
      }
      if (name.endsWith('.outbox')) {
        return `select '${name}' as name, count(*)${notAllowed}::text as sum from ${ref} union all select '${name}${SETTLE_ONLY}', count(*)::text from ${ref}`;
      }
      return COUNT_ONLY.test(name)
        ? `select '${name}' as name, count(*)::text as sum from ${ref}`
        : `select '${name}' as name, count(*)::text || ':' || coalesce(md5(string_agg(md5(t::text), '' order by md5(t::text))), '') as sum from ${ref} t`;
    });
  const { rows } = await db.query<{ name: string; sum: string }>(parts.join(' union all '));
  return new Map(rows.map((r) => [r.name, r.sum]));
}

function differences(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
}

/** Waits until no table changes for a moment (a call that succeeded has finished its events). */
async function settle(db: Client, skip: Record<string, string>, allowed: Record<string, string>): Promise<Map<string, string>> {
  let last = await snapshot(db, skip, allowed);
  const deadline = Date.now() + 10_000;
  let quiet = 0;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await snapshot(db, skip, allowed);
    quiet = differences(last, next).length === 0 ? quiet + 1 : 0;
    last = next;
    if (quiet >= 3) break;
  }
  return last;
}

export async function fuzz(ctx: FuzzContext): Promise<FuzzReport> {
  const rnd = seeded(ctx.seed);
  const routes = ctx.routes.filter((r) => !(`${r.method} ${r.path}` in UNFUZZED));
  const byStatus: Record<string, number> = {};
  const byMutation: Record<string, number> = {};
  const findings: Finding[] = [];
  const times: { request: string; ms: number; status: number }[] = [];
  let before = await settle(ctx.db, ctx.mayChange, ctx.mayEmit);
  for (let n = 0; n < ctx.requests; n++) {
    const route = pick(rnd, routes);
    const role = pick(rnd, FUZZ_ROLES);
    const built = buildRequest(route, role, ctx, rnd, n);
    const label = `#${n} ${role} ${built.method} ${built.path.slice(0, 120)} [${built.mutation}]`;
    byMutation[built.mutation.split(':')[0]] = (byMutation[built.mutation.split(':')[0]] ?? 0) + 1;
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(ctx.url, built, 10_000);
    } catch (err) {
      findings.push({ kind: 'no answer', request: label, detail: err instanceof Error ? err.message : String(err) });
      before = await settle(ctx.db, ctx.mayChange, ctx.mayEmit);
      continue;
    }
    byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    times.push({ request: label, ms: answer.ms, status: answer.status });
    if (answer.status >= 500) findings.push({ kind: '5xx', request: label, status: answer.status, detail: answer.text });
    if (answer.status >= 400) {
      const after = await snapshot(ctx.db, ctx.mayChange, ctx.mayEmit);
      const all = differences(before, after);
      const tolerated = new Set(
        (ctx.mayChangeOn ?? []).filter((m) => m.route.test(`${route.method} ${route.path}`)).flatMap((m) => m.tables),
      );
      const changed = all.filter((k) => !k.endsWith(SETTLE_ONLY) && !tolerated.has(k));
      if (changed.length > 0)
        findings.push({ kind: 'state changed', request: label, status: answer.status, detail: `changed: ${changed.join(', ')}` });
      before = all.length > 0 ? await settle(ctx.db, ctx.mayChange, ctx.mayEmit) : after;
    } else {
      // A call that changed something has written its events in the same transaction: wait for
      // their effects elsewhere. One that changed nothing has nothing to wait for.
      const after = await snapshot(ctx.db, ctx.mayChange, ctx.mayEmit);
      before = differences(before, after).length > 0 ? await settle(ctx.db, ctx.mayChange, ctx.mayEmit) : after;
    }
    ctx.onProgress?.(n + 1);
  }
  const sorted = times.map((t) => t.ms).sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return {
    seed: ctx.seed,
    requests: ctx.requests,
    byStatus,
    byMutation,
    findings,
    slowest: [...times]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10)
      .map((t) => ({ ...t, ms: Math.round(t.ms) })),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: Math.round(sorted[sorted.length - 1] ?? 0),
  };
}
