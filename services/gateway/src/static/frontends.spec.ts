import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import cookieParser from 'cookie-parser';
import express from 'express';
import request from 'supertest';
import { responseCompression } from '../common/compression';
import type { GatewayConfig } from '../config';
import { SESSION_COOKIE } from '../sessions/cookies';
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

// A page names, as <link rel="preload">, what its first screen needs beyond the shell's own code
// (which the shell's build names in index.html): nothing it needs waits for the script before it
// to ask for it.
describe('the page the gateway sends for a screen', () => {
  let site: string;
  let pages: express.Express;
  const INDEX =
    '<!doctype html><html><head><title>LWS</title><link rel="preload" as="script" href="/610.aaaaaaaa.js" fetchpriority="low"></head><body></body></html>';
  const manifest = (expose: string) =>
    JSON.stringify({
      metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' } },
      exposes: [{ name: 'App', assets: { js: { sync: [expose], async: ['913.cccccccc.js'] }, css: { sync: [], async: [] } } }],
    });

  beforeAll(() => {
    site = mkdtempSync(join(tmpdir(), 'lws-pages-'));
    const write = (path: string, body: string) => {
      mkdirSync(join(site, path, '..'), { recursive: true });
      writeFileSync(join(site, path), body);
    };
    write('shell/dist/index.html', INDEX);
    write('shell/dist/preload.json', JSON.stringify({ app: ['610.aaaaaaaa.js'], login: ['66.bbbbbbbb.js', 'login.dddddddd.js'] }));
    write('worker/dist/mf-manifest.json', manifest('__federation_expose_App.11111111.js'));
    write('kiosk/dist/mf-manifest.json', manifest('__federation_expose_App.22222222.js'));
    pages = express();
    pages.use(cookieParser());
    pages.use(frontendRouter({ STATIC_DIR: site } as GatewayConfig));
  });

  afterAll(() => rmSync(site, { recursive: true, force: true }));

  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="preload" as="(\w+)"(?: crossorigin)? href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
  const get = (path: string, cookie?: string) => {
    const req = request(pages).get(path).set('Accept', 'text/html');
    return cookie ? req.set('Cookie', cookie) : req;
  };

  it("on /kiosk: the kiosk's manifest, entry and exposed module, beside the shell's code", async () => {
    const res = await get('/kiosk');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(preloads(res.text)).toEqual([
      'script /610.aaaaaaaa.js',
      'fetch /remotes/kiosk/mf-manifest.json',
      'script /remotes/kiosk/remoteEntry.js',
      'script /remotes/kiosk/__federation_expose_App.22222222.js',
    ]);
  });

  it("on /worker: the worker's, only with a session (without one, the page goes to the login form)", async () => {
    expect(preloads((await get('/worker', `${SESSION_COOKIE}=abc`)).text)).toEqual([
      'script /610.aaaaaaaa.js',
      'fetch /remotes/worker/mf-manifest.json',
      'script /remotes/worker/remoteEntry.js',
      'script /remotes/worker/__federation_expose_App.11111111.js',
    ]);
    expect(preloads((await get('/worker')).text)).toEqual(['script /610.aaaaaaaa.js']);
  });

  it("the login page's code where a signed-out visitor sees the form, and nowhere else", async () => {
    for (const path of ['/login', '/admin', '/superadmin']) {
      expect(preloads((await get(path)).text)).toEqual(['script /610.aaaaaaaa.js', 'script /66.bbbbbbbb.js', 'script /login.dddddddd.js']);
    }
    expect(preloads((await get('/login', `${SESSION_COOKIE}=abc`)).text)).toEqual(['script /610.aaaaaaaa.js']);
    expect(preloads((await get('/profile')).text)).toEqual(['script /610.aaaaaaaa.js']);
  });

  it("a remote deployed on its own picks up its new build's files; one served from elsewhere is not named", async () => {
    writeFileSync(join(site, 'kiosk/dist/mf-manifest.json'), manifest('__federation_expose_App.33333333.js'));
    // A file system's timestamps may be coarse: the same length and time would not show the change.
    const later = new Date(Date.now() + 5000);
    utimesSync(join(site, 'kiosk/dist/mf-manifest.json'), later, later);
    expect(preloads((await get('/kiosk')).text)).toContain('script /remotes/kiosk/__federation_expose_App.33333333.js');

    const elsewhere = express();
    elsewhere.use(cookieParser());
    elsewhere.use(frontendRouter({ STATIC_DIR: site, REMOTE_KIOSK_URL: 'https://cdn.example/kiosk/mf-manifest.json' } as GatewayConfig));
    expect(preloads((await request(elsewhere).get('/kiosk').set('Accept', 'text/html')).text)).toEqual(['script /610.aaaaaaaa.js']);
  });

  it('sends index.html as built when there is nothing to add, and nothing when there is no build', async () => {
    expect((await get('/profile')).text).toBe(INDEX);
    const empty = express();
    empty.use(frontendRouter({ STATIC_DIR: join(site, 'nowhere') } as GatewayConfig));
    expect((await request(empty).get('/login').set('Accept', 'text/html')).status).toBe(404);
  });
});
