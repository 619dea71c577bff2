import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { responseCompression } from '../common/compression';
import type { GatewayConfig } from '../config';
import { frontendRouter } from './frontends';

// What the gateway sends of the frontends' builds: the copies the build compressed,
// long caching for files named by their content, a real robots.txt; and compressed API answers,
// but never the live stream.

const REPO = join(__dirname, '..', '..', '..', '..');
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});`;
let dir: string;
let app: express.Express;

/** An answer's body as bytes (the client decodes what Content-Encoding names, as a browser does). */
const raw = (r: request.Test) =>
  r.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lws-static-'));
  const write = (path: string, body: string | Buffer) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), body);
  };
  for (const file of ['shell/dist/main.1a2b3c4d.js', 'worker/dist/remoteEntry.js']) {
    write(file, SCRIPT);
    write(`${file}.br`, brotliCompressSync(SCRIPT));
    write(`${file}.gz`, gzipSync(SCRIPT));
  }
  write('shell/dist/index.html', '<!doctype html><title>LWS</title>');
  write('shell/dist/robots.txt', readFileSync(join(REPO, 'frontends/shell/public/robots.txt')));
  app = express();
  app.use(responseCompression);
  app.get('/api/big', (_req, res) => void res.json({ rows: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Worker ${i}` })) }));
  app.get('/api/events', (_req, res) => {
    res.setHeader('Content-Type', 'text/event-stream');
    res.end(`data: ${'y'.repeat(4000)}\n\n`);
  });
  app.use(frontendRouter({ STATIC_DIR: dir } as GatewayConfig));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the frontends as the gateway serves them', () => {
  it("sends the build's brotli copy to a browser that takes it, else the gzip one, else the file", async () => {
    const br = await raw(request(app).get('/main.1a2b3c4d.js').set('Accept-Encoding', 'gzip, deflate, br'));
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect((br.body as Buffer).toString()).toBe(SCRIPT);

    const gz = await raw(request(app).get('/main.1a2b3c4d.js').set('Accept-Encoding', 'gzip'));
    expect(gz.headers['content-encoding']).toBe('gzip');

    const plain = await raw(request(app).get('/main.1a2b3c4d.js').set('Accept-Encoding', 'identity'));
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect((plain.body as Buffer).toString()).toBe(SCRIPT);
  });

  it('lets browsers keep a file named by its content for a year; asks again for a remote entry every time', async () => {
    const hashed = await request(app).get('/main.1a2b3c4d.js').set('Accept-Encoding', 'br');
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const entry = await raw(request(app).get('/remotes/worker/remoteEntry.js').set('Accept-Encoding', 'br'));
    expect(entry.headers['content-encoding']).toBe('br');
    expect(entry.headers['cache-control']).toBe('no-cache');
  });

  it('answers robots.txt with the rules, not the app: only the sign-in page is for search engines', async () => {
    const res = await request(app).get('/robots.txt').set('Accept', 'text/html,*/*');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^User-agent: \*$/m);
    expect(res.text).toMatch(/^Allow: \/login$/m);
    expect(res.text).toMatch(/^Disallow: \/$/m);
  });

  it('compresses a large API answer, but never the live stream', async () => {
    const api = await raw(request(app).get('/api/big').set('Accept-Encoding', 'br, gzip'));
    expect(api.headers['content-encoding']).toBe('br');
    expect(JSON.parse((api.body as Buffer).toString()).rows).toHaveLength(200);
    const live = await raw(request(app).get('/api/events').set('Accept-Encoding', 'br, gzip'));
    expect(live.headers['content-encoding']).toBeUndefined();
  });
});
