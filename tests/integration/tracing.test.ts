import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { createTestDatabase, eventually, testServers, uniqueId, type TestDatabase } from '@lws/testing';
import { nextMobile } from './support/accounts';
import { XHR } from './support/test-stack';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

const SERVER = 2;

/**
 * One check-in is one trace across the bus: the stack runs as `npm start` runs it (one process,
 * built output, tracing on because an OTLP endpoint is set) against the real servers, and exports
 * to a local OTLP/HTTP receiver this test runs. The trace must hold the gateway's HTTP span,
 * identity's PIN check, shifts' write, the outbox publish and escalation's consumer span.
 */
describe('traces across the bus (OTLP/HTTP to a local receiver)', () => {
  const spans: Span[] = [];
  let receiver: Server;
  let stack: ChildProcess;
  let db: TestDatabase;
  let url: string;
  const id = uniqueId('tr');
  const password = `Tr4ce-${id}`;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (req.url === '/v1/traces' && (req.headers['content-type'] ?? '').includes('json')) {
          const payload = JSON.parse(body) as {
            resourceSpans: { scopeSpans: { spans: (Span & { attributes: { key: string; value: Record<string, unknown> }[] })[] }[] }[];
          };
          for (const rs of payload.resourceSpans ?? []) {
            for (const ss of rs.scopeSpans ?? []) {
              for (const s of ss.spans ?? []) {
                const attributes = Object.fromEntries((s.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]]));
                spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, name: s.name, kind: s.kind, attributes });
              }
            }
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    receiver.listen(0, '127.0.0.1');
    await once(receiver, 'listening');
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

    db = await createTestDatabase('lws_trace_');
    const root = resolve(__dirname, '../..');
    stack = spawn(process.execPath, [join(root, 'tools/stack/dist/cli.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: '0',
        HEALTH_PORT: '0',
        METRICS_PORT: '0',
        DATABASE_URL: db.url,
        NATS_URL: testServers.natsUrl,
        REDIS_URL: testServers.redisUrl,
        REDIS_KEY_PREFIX: `${id}:`,
        EVENTS_STREAM: `LWS_${id.toUpperCase()}`,
        SUBJECT_PREFIX: `${id}.`,
        LWS_SUPERADMIN_PASSWORD: password,
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_SDK_DISABLED: 'false',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    stack.stdout!.on('data', (d) => (output += String(d)));
    stack.stderr!.on('data', (d) => (output += String(d)));
    url = await eventually(() => /LWS is running: (http:\/\/\S+)/.exec(output)?.[1], 90_000, 200).catch((err) => {
      throw new Error(`${err.message}\n${output}`);
    });
  }, 120_000);

  afterAll(async () => {
    if (stack && stack.exitCode === null) {
      stack.kill('SIGTERM');
      await Promise.race([once(stack, 'exit'), new Promise((r) => setTimeout(r, 10_000).unref())]);
    }
    receiver?.closeAllConnections();
    await new Promise((r) => receiver?.close(r));
    await db?.drop();
  }, 30_000);

  it('one check-in: gateway HTTP span, PIN check, shifts write, outbox publish and escalation consumer span in one trace', async () => {
    const admin = request.agent(url);
    await admin.post('/api/auth/login').set(XHR).send({ username: 'superadmin', password }).expect(200);
    await admin.post('/api/location-options').set(XHR).send({ name: 'Trace Depot' }).expect(201);
    const username = `trw${Math.random().toString(36).slice(2, 8)}`;
    const created = await admin
      .post('/api/users')
      .set(XHR)
      .send({ username, password: 'Secret1pass', name: 'Trace Worker', phone: nextMobile(), role: 'worker', pinCode: '4826' })
      .expect(201);
    const userId = created.body.user.id as number;
    const worker = request.agent(url);
    await worker.post('/api/auth/login').set(XHR).send({ username, password: 'Secret1pass' }).expect(200);
    await eventually(
      async () => (await worker.post(`/api/users/${userId}/start-shift`).set(XHR).send({ location: 'Trace Depot' })).status === 200,
      20_000,
      200,
    );
    await worker.post('/api/check-ins').set(XHR).send({ userId, pin: '4826' }).expect(201);

    const isCheckInRequest = (s: Span) =>
      s.kind === SERVER && Object.values(s.attributes).some((v) => v === '/api/check-ins' || String(v).endsWith('/api/check-ins'));
    const trace = await eventually(
      () => {
        const root = spans.find(isCheckInRequest);
        if (!root) return undefined;
        const same = spans.filter((s) => s.traceId === root.traceId);
        return same.some(
          (s) => s.name === 'consume shifts.checkin.recorded.v1' && s.attributes['messaging.consumer.group.name'] === 'escalation-shifts',
        )
          ? same
          : undefined;
      },
      30_000,
      200,
    );
    const names = trace.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'rpc identity.pin.verify.v1',
        'handle identity.pin.verify.v1',
        'rpc shifts.checkin.record.v1',
        'handle shifts.checkin.record.v1',
        'publish shifts.checkin.recorded.v1',
        'consume shifts.checkin.recorded.v1',
      ]),
    );
    // The consumer span follows the publish, which follows the write's span: a chain, not a guess.
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const consume = trace.find(
      (s) => s.name === 'consume shifts.checkin.recorded.v1' && s.attributes['messaging.consumer.group.name'] === 'escalation-shifts',
    )!;
    expect(byId.get(consume.parentSpanId!)?.name).toBe('publish shifts.checkin.recorded.v1');
    const chain: string[] = [];
    for (let s: Span | undefined = consume; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined) chain.push(s.name);
    expect(chain).toContain('handle shifts.checkin.record.v1');
    expect(chain[chain.length - 1]).toBe(trace.find(isCheckInRequest)!.name);
  });
});
