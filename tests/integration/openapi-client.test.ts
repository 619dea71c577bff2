import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { eventually } from '@lws/testing';
import { createAccount, superadminOf, type Account } from './support/accounts';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

const run = promisify(execFile);
const WAIT_MS = 20_000;
/** Inside the repository, so the generated client resolves openapi-fetch as any project's would. */
const CLIENT_DIR = join(__dirname, '.generated-client');

/** What an integrator writes against the generated types: if the document is wrong, this does not compile. */
const CLIENT_SOURCE = `import createClient from 'openapi-fetch';
import type { paths } from './lws-api';

export function lwsClient(baseUrl: string, token: string) {
  return createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${token}\` } });
}

export async function openAlarmIds(client: ReturnType<typeof lwsClient>): Promise<string[]> {
  const { data, error } = await client.GET('/api/alarms', { params: { query: { open: 'true' } } });
  if (error) throw new Error(error.message);
  return data.filter((a) => a.state !== 'resolved').map((a) => a.id);
}

export async function acknowledge(client: ReturnType<typeof lwsClient>, id: string): Promise<string | null> {
  const { data, error } = await client.POST('/api/alarms/{id}/acknowledge', { params: { path: { id } } });
  if (error) throw new Error(error.message);
  return data.acknowledgedByName;
}
`;

/**
 * A client no one here wrote: openapi-typescript turns the served /api/openapi.json into types,
 * an integrator's code against them type-checks, and openapi-fetch with an API token lists the
 * open alarms and acknowledges one.
 */
describe('a client generated from /api/openapi.json (real PostgreSQL, NATS, Redis; whole stack)', () => {
  let t: TestStack;
  let superadmin: Account;
  let admin: Account;

  beforeAll(async () => {
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000' } });
    superadmin = await superadminOf(t);
    admin = await createAccount(t, superadmin.agent, 'admin', 'oaadmin');
    await admin.agent.post('/api/location-options').set(XHR).send({ name: 'Quay Street' }).expect(201);
  }, 120_000);
  afterAll(async () => {
    rmSync(CLIENT_DIR, { recursive: true, force: true });
    await t?.stop();
  });

  it('type-checks an integrator’s code, then lists open alarms and acknowledges one with a token', async () => {
    const doc = await (await fetch(`${t.url}/api/openapi.json`)).json();
    const types = astToString(await openapiTS(doc));
    mkdirSync(CLIENT_DIR, { recursive: true });
    writeFileSync(join(CLIENT_DIR, 'lws-api.ts'), types);
    writeFileSync(join(CLIENT_DIR, 'client.ts'), CLIENT_SOURCE);
    const tsc = require.resolve('typescript/bin/tsc');
    const flags = [
      '--noEmit',
      '--strict',
      '--skipLibCheck',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
    ];
    await run(process.execPath, [tsc, ...flags, join(CLIENT_DIR, 'client.ts')], { cwd: CLIENT_DIR }).catch((err: { stdout?: string }) => {
      throw new Error(`the generated client does not type-check:\n${err.stdout ?? String(err)}`);
    });

    const worker = await createAccount(t, admin.agent, 'worker', 'oaworker');
    await eventually(
      async () =>
        (await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: 'Quay Street' })).status === 200,
      WAIT_MS,
      100,
    );
    await superadmin.agent.post(`/api/simulate-check-in-due/${worker.id}`).set(XHR).expect(200);
    const token = (
      await admin.agent
        .post('/api/api-tokens')
        .set(XHR)
        .send({ name: 'Generated client', scopes: ['alarms:read', 'alarms:write'], expiresInDays: 1 })
        .expect(201)
    ).body.secret as string;

    // The integrator's code itself, at run time.
    const generated = require(join(CLIENT_DIR, 'client.ts')) as {
      lwsClient(baseUrl: string, token: string): unknown;
      openAlarmIds(client: unknown): Promise<string[]>;
      acknowledge(client: unknown, id: string): Promise<string | null>;
    };
    const client = generated.lwsClient(t.url, token);
    const alarm = await eventually(async () => {
      const rows = (await admin.agent.get('/api/alarms').expect(200)).body as { id: string; userId: number }[];
      return rows.find((a) => a.userId === worker.id);
    }, WAIT_MS);
    expect(await generated.openAlarmIds(client)).toContain(alarm.id);
    expect(await generated.acknowledge(client, alarm.id)).toBe('Generated client');
    const after = (await admin.agent.get('/api/alarms').expect(200)).body as { id: string; state: string }[];
    expect(after.find((a) => a.id === alarm.id)?.state).toBe('acknowledged');
  });
});
