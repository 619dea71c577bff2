import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXCERPT_BYTES, urlProblem, USER_AGENT, WebhookHttp } from './webhook-http';

/** A receiver on 127.0.0.1 that answers as `answer` says and records what reached it. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const received: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('webhook requests (the SSRF guard, the timeout, what is kept of the answer)', () => {
  const clients: WebhookHttp[] = [];
  const client = (allowLoopback: boolean, timeoutMs = 2000) => {
    const c = new WebhookHttp({ timeoutMs, policy: { allowLoopback }, maxSockets: 4 });
    clients.push(c);
    return c;
  };
  afterAll(() => {
    for (const c of clients) c.close();
  });

  it('refuses loopback and private addresses unless loopback is allowed, and then only loopback', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end('ok'));
    try {
      const guarded = client(false);
      for (const url of [
        r.url,
        `https://127.0.0.1:${r.port}/hook`,
        `https://localhost:${r.port}/hook`,
        'https://10.1.2.3/hook',
        'https://169.254.169.254/latest',
      ]) {
        const result = await guarded.post(url, {}, '{}');
        expect({ url, forbidden: result.forbidden, status: result.status }).toEqual({ url, forbidden: true, status: undefined });
        expect(result.error).toMatch(/^refused: /);
      }
      expect(r.received).toHaveLength(0);
      // A name that resolves to this machine is refused by the connection's own lookup.
      expect((await guarded.post(`https://localhost:${r.port}/hook`, {}, '{}')).error).toMatch(/forbidden address \((127\.0\.0\.1|::1)\)/);

      const loopback = client(true);
      expect(await loopback.post(r.url, { 'webhook-id': 'msg_1' }, '{"a":1}')).toMatchObject({ status: 200, excerpt: 'ok' });
      expect(r.received).toHaveLength(1);
      expect(r.received[0].body).toBe('{"a":1}');
      expect(r.received[0].headers).toMatchObject({ 'content-type': 'application/json', 'user-agent': USER_AGENT, 'webhook-id': 'msg_1' });
      // Loopback allowed is not private networks allowed.
      expect(await loopback.post('https://10.1.2.3/hook', {}, '{}')).toMatchObject({ forbidden: true });
    } finally {
      await r.close();
    }
  });

  it('stores only https URLs without credentials; http only to a loopback address, and only where loopback is allowed', () => {
    expect(urlProblem('https://hooks.example.org/lws', {})).toBeUndefined();
    expect(urlProblem('http://hooks.example.org/lws', {})).toBe('url must be an https:// URL');
    expect(urlProblem('http://127.0.0.1:9/lws', {})).toBe('url must be an https:// URL');
    expect(urlProblem('http://127.0.0.1:9/lws', { allowLoopback: true })).toBeUndefined();
    expect(urlProblem('http://localhost:9/lws', { allowLoopback: true })).toBe('url must be an https:// URL');
    expect(urlProblem('https://user:pw@hooks.example.org/', {})).toBe('url must not carry credentials');
    expect(urlProblem('not a url', {})).toBe('url must be a URL');
  });

  it('gives up on an endpoint that does not answer within the timeout', async () => {
    const r = await receiver(() => undefined);
    try {
      const started = Date.now();
      const result = await client(true, 300).post(r.url, {}, '{}');
      expect(result).toMatchObject({ error: 'timed out after 300 ms' });
      expect(result.status).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await r.close();
    }
  });

  it('keeps the first kilobyte of the answer as text, its status and Retry-After, and follows no redirect', async () => {
    const long = await receiver((_req, res) => res.writeHead(503, { 'retry-after': '7' }).end('x'.repeat(5000)));
    const moved = await receiver((_req, res) => res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end());
    try {
      const result = await client(true).post(long.url, {}, '{}');
      expect(result).toMatchObject({ status: 503, retryAfter: '7' });
      expect(result.excerpt).toHaveLength(EXCERPT_BYTES);
      expect(await client(true).post(moved.url, {}, '{}')).toMatchObject({ status: 302 });
      expect(moved.received).toHaveLength(1);
    } finally {
      await long.close();
      await moved.close();
    }
  });

  it('reports a refused connection as an error to retry, not a forbidden address', async () => {
    const r = await receiver((_req, res) => res.end());
    await r.close();
    const result = await client(true).post(r.url, {}, '{}');
    expect(result.forbidden).toBeFalsy();
    expect(result.error).toContain('ECONNREFUSED');
  });
});
