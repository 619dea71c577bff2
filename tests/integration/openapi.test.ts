import type { INestApplication } from '@nestjs/common';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import { buildOpenApiDocument } from '@lws/gateway';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { servedRoutes } from './support/routes';

/**
 * The OpenAPI document against a running gateway (the whole stack on real PostgreSQL, NATS and
 * Redis, test clock on): it lists exactly the `/api` routes the gateway serves, the gateway
 * serves it and its reference page to anyone, and the answers of the routes a machine
 * integration uses (alarms, worker lists, users, teams, shifts, check-ins, emergencies, the
 * activity log) are valid by the document's response schemas, field for field.
 */

const EVENT_WAIT_MS = 30_000;
const SITE = 'The Prospect Building';

type Operation = { responses: Record<string, { content?: Record<string, unknown> } | { $ref: string }> };
const document = buildOpenApiDocument() as { paths: Record<string, Record<string, Operation>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi');

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const asOpenApi = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The document's schema of what `route` answers with `status`, as a validator. */
function responseValidator(route: string, status: number): ValidateFunction {
  const [method, path] = route.split(' ');
  const op = document.paths[asOpenApi(path)]?.[method.toLowerCase()];
  if (!op) throw new Error(`${route} is not in the document`);
  const response = op.responses[String(status)];
  if (!response) throw new Error(`${route} documents no ${status} answer`);
  const ref =
    '$ref' in response
      ? `openapi${response.$ref}/content/application~1json/schema`
      : `openapi#/${pointer('paths', asOpenApi(path), method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`${route} documents no JSON schema for its ${status} answer`);
  return validate;
}

const checked = new Set<string>();

/** The answer is the status the document says and valid by its schema; its body is returned. */
function conforms(route: string, res: request.Response, status = res.status) {
  expect({ route, status: res.status, body: res.status === status ? 'as expected' : res.body }).toEqual({
    route,
    status,
    body: 'as expected',
  });
  const validate = responseValidator(route, status);
  const valid = validate(res.body);
  expect({ route, body: res.body, errors: valid ? null : validate.errors }).toEqual({ route, body: res.body, errors: null });
  checked.add(route);
  return res.body;
}

describe('the OpenAPI document against the running gateway (real PostgreSQL, NATS, Redis; whole stack)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;
  let worker: Account & { pin: string };

  /** A worker of the admin's team with a PIN of their own (PINs are unique: a taken one is drawn again). */
  async function workerWithPin(): Promise<Account & { pin: string }> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const pin = String(5000 + Math.floor(Math.random() * 4000));
      const username = `oas${Math.random().toString(36).slice(2, 9)}`;
      const res = await admin.agent
        .post('/api/users')
        .set(XHR)
        .send({ username, password: 'Secret1pass', name: 'Open Api', phone: nextMobile(), role: 'worker', pinCode: pin });
      if (res.status === 409) continue;
      conforms('POST /api/users', res, 201);
      return {
        id: res.body.user.id,
        username,
        password: 'Secret1pass',
        role: 'worker',
        pin,
        agent: await signIn(t, username, 'Secret1pass'),
      };
    }
    throw new Error('no free PIN');
  }

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', LWS_TEST_CLOCK: '1', EMERGENCY_NUMBER_1: '+447911123456' } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin');
    worker = await workerWithPin();
  }, 120_000);
  afterAll(() => t?.stop());

  it('lists exactly the /api routes the gateway serves', () => {
    const gateway = t.stack.services.find((s) => s.name === 'gateway') as unknown as { app: INestApplication };
    const served = servedRoutes(gateway.app)
      .filter((r) => /^[A-Z]+ \/api(\/|$)/.test(r))
      .map((r) => {
        const [method, path] = r.split(' ');
        return `${method} ${asOpenApi(path)}`;
      });
    const documented = Object.entries(document.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(served.length).toBeGreaterThan(90);
    expect({ missing: served.filter((r) => !documented.includes(r)) }).toEqual({ missing: [] });
    expect({ notServed: documented.filter((r) => !served.includes(r)) }).toEqual({ notServed: [] });
  });

  it('serves the document to anyone, as generated', async () => {
    const res = await request(t.url).get('/api/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('serves the reference page and its scripts to anyone, under the strict Content-Security-Policy', async () => {
    const page = await request(t.url).get('/api/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    // No inline script: every <script> names a file of this origin.
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBe(2);
    for (const [, attrs, inline] of scripts) {
      expect(inline.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attrs)![1];
      expect(src).toMatch(/^\/api\/docs\//);
      const script = await request(t.url).get(src).expect(200);
      expect(script.headers['content-type']).toMatch(/^text\/javascript/);
      expect(script.text.length).toBeGreaterThan(100);
      // Nothing the page loads comes from another origin: the policy would refuse it.
      expect(script.text).not.toMatch(/https:\/\/cdn\./);
    }
    await request(t.url).get('/api/docs/..%2f..%2fpackage.json').expect(404);
  });

  it('answers errors as the shared error schema says', async () => {
    conforms('GET /api/alarms', await request(t.url).get('/api/alarms'), 401);
    conforms('GET /api/alarms', await worker.agent.get('/api/alarms'), 403);
    conforms('GET /api/alarms', await admin.agent.get('/api/alarms?limit=0'), 400);
    conforms('POST /api/alarms/:id/acknowledge', await admin.agent.post('/api/alarms/not-an-id/acknowledge').set(XHR), 400);
  });

  it("answers a machine integration's routes as the document says", async () => {
    // A shift, a check-in and the monitors' lists.
    await eventually(
      async () => (await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      EVENT_WAIT_MS,
      100,
    );
    conforms(
      'POST /api/users/:id/start-shift',
      await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: SITE }),
    );
    conforms(
      'POST /api/check-ins',
      await worker.agent.post('/api/check-ins').set(XHR).send({ userId: worker.id, pin: worker.pin, location: SITE }),
      201,
    );
    conforms(
      'POST /api/check-ins/extend',
      await worker.agent.post('/api/check-ins/extend').set(XHR).send({ userId: worker.id, minutes: 15 }),
    );
    conforms('GET /api/users/:id/latest-check-in', await worker.agent.get(`/api/users/${worker.id}/latest-check-in`));
    for (const list of ['active', 'due', 'missed']) conforms(`GET /api/workers/${list}`, await admin.agent.get(`/api/workers/${list}`));
    conforms('GET /api/dashboard-data', await admin.agent.get('/api/dashboard-data'));

    // A missed check-in opens an alarm; a monitor acknowledges and resolves it.
    conforms('POST /api/simulate-check-in-due/:id', await superadmin.agent.post(`/api/simulate-check-in-due/${worker.id}`).set(XHR));
    const alarm = await eventually(
      async () => {
        const res = await admin.agent.get('/api/alarms');
        const listed = conforms('GET /api/alarms', res) as { id: string; userId: number; kind: string }[];
        return listed.find((a) => a.userId === worker.id && a.kind === 'missed_check_in');
      },
      EVENT_WAIT_MS,
      200,
    );
    conforms('POST /api/alarms/:id/acknowledge', await admin.agent.post(`/api/alarms/${alarm!.id}/acknowledge`).set(XHR));
    conforms(
      'POST /api/alarms/:id/resolve',
      await admin.agent
        .post(`/api/alarms/${alarm!.id}/resolve`)
        .set(XHR)
        .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Checked by phone' }),
    );
    conforms('GET /api/alarms', await admin.agent.get('/api/alarms?open=false'));

    // An emergency, and the worker marking themselves safe.
    expect(conforms('GET /api/users/:id/emergency', await worker.agent.get(`/api/users/${worker.id}/emergency`))).toEqual({
      emergency: null,
    });
    conforms(
      'POST /api/emergency-call',
      await worker.agent.post('/api/emergency-call').set(XHR).send({ userId: worker.id, emergency: true }),
    );
    const own = await eventually(
      async () => {
        const body = conforms('GET /api/users/:id/emergency', await worker.agent.get(`/api/users/${worker.id}/emergency`)) as {
          emergency: { id: string } | null;
        };
        return body.emergency ?? undefined;
      },
      EVENT_WAIT_MS,
      200,
    );
    conforms(
      'POST /api/users/:id/emergency/:alarmId/cancel',
      await worker.agent.post(`/api/users/${worker.id}/emergency/${own!.id}/cancel`).set(XHR).send({ pin: worker.pin }),
    );
    conforms('GET /api/alarms', await admin.agent.get('/api/alarms'));

    // Users, teams and the activity log, as an admin and as the superadmin (who sees more fields).
    for (const who of [admin, superadmin]) {
      conforms('GET /api/worker-accounts', await who.agent.get('/api/worker-accounts'));
      conforms('GET /api/data/workers', await who.agent.get('/api/data/workers'));
      conforms('GET /api/users/:id/with-relations', await who.agent.get(`/api/users/${worker.id}/with-relations`));
      conforms('GET /api/teams', await who.agent.get('/api/teams'));
      conforms('GET /api/activity-logs', await who.agent.get('/api/activity-logs'));
    }
    conforms('GET /api/users/:id/with-relations', await superadmin.agent.get(`/api/users/${admin.id}/with-relations`));
    conforms('GET /api/users/:id/with-relations', await worker.agent.get(`/api/users/${worker.id}/with-relations`));
    conforms('GET /api/activity-logs', await worker.agent.get('/api/activity-logs'));
    conforms('GET /api/auth/me', await worker.agent.get('/api/auth/me'));
    conforms('GET /api/location-options', await admin.agent.get('/api/location-options'));
    conforms('GET /api/users/:id/emergency-contacts', await worker.agent.get(`/api/users/${worker.id}/emergency-contacts`));

    conforms(
      'POST /api/users/:id/end-shift',
      await worker.agent.post(`/api/users/${worker.id}/end-shift`).set(XHR).send({ pin: worker.pin }),
    );
    conforms('GET /api/users/:id/latest-check-in', await worker.agent.get(`/api/users/${worker.id}/latest-check-in`));
    conforms('GET /api/users/:id/with-relations', await worker.agent.get(`/api/users/${worker.id}/with-relations`));
  });

  it('answers every JSON GET route without parameters as the document says, success or error', async () => {
    const routes = Object.entries(document.paths)
      .filter(([path, ops]) => !path.includes('{') && ops.get)
      .filter(([, ops]) => {
        const ok = Object.entries(ops.get.responses).find(([status]) => /^2/.test(status))?.[1];
        return ok && 'content' in ok && ok.content && 'application/json' in ok.content;
      })
      .map(([path]) => path);
    expect(routes.length).toBeGreaterThan(25);
    for (const path of routes) {
      const res = await superadmin.agent.get(path);
      const documented = Object.keys(document.paths[path].get.responses);
      expect({ path, status: res.status, documented: documented.includes(String(res.status)) }).toEqual({
        path,
        status: res.status,
        documented: true,
      });
      conforms(`GET ${path}`, res);
    }
  });

  it('checked every route a machine integration uses', () => {
    const machineRoutes = [
      'GET /api/alarms',
      'POST /api/alarms/:id/acknowledge',
      'POST /api/alarms/:id/resolve',
      'POST /api/users/:id/emergency/:alarmId/cancel',
      'GET /api/workers/active',
      'GET /api/workers/due',
      'GET /api/workers/missed',
      'GET /api/worker-accounts',
      'GET /api/data/workers',
      'GET /api/users/:id/with-relations',
      'GET /api/teams',
      'POST /api/users/:id/start-shift',
      'POST /api/users/:id/end-shift',
      'POST /api/check-ins',
      'POST /api/emergency-call',
      'GET /api/activity-logs',
    ];
    expect(machineRoutes.filter((r) => !checked.has(r))).toEqual([]);
  });
});
