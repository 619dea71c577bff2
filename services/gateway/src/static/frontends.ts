import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GatewayConfig } from '../config';
import { SESSION_COOKIE } from '../sessions/cookies';
import { syncHints } from '../sessions/hints';

export const REMOTES = ['worker', 'admin', 'superadmin', 'kiosk'] as const;

/** A file whose name carries its content hash: it never changes, so browsers may keep it a year. */
const HASHED = /\.[0-9a-f]{8}\.(?:js|css)$/;
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;

/** Every file under `dir`, as URL paths ("/main.1a2b3c4d.js"). */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}/${e.name}`) : [`${prefix}/${e.name}`],
  );
}

/**
 * Sends the build's brotli or gzip copy of a file (compressed once, at the highest
 * level, when it was built) to a browser that accepts it. Only files the build wrote are known,
 * listed when the gateway starts: a request names one of them or falls through to the static
 * server as before.
 */
function precompressed(dir: string, setHeaders: (res: Response, path: string) => void) {
  const files = new Set(filesUnder(dir));
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !files.has(req.path)) return next();
    const variants = ENCODINGS.filter(([, ext]) => files.has(`${req.path}${ext}`));
    if (variants.length === 0) return next();
    res.vary('Accept-Encoding');
    // Brotli whenever the browser takes it: browsers list gzip first at the same weight.
    const variant = variants.find(([encoding]) => req.acceptsEncodings(encoding) === encoding);
    if (!variant) return next();
    res.type(extname(req.path));
    res.setHeader('Content-Encoding', variant[0]);
    setHeaders(res, req.path);
    res.sendFile(join(dir, `${req.path}${variant[1]}`), { dotfiles: 'deny' }, (err) => (err ? next(err) : undefined));
  };
}

/** A file's contents parsed, read again only when the file changes (a remote deployed on its own). */
function fileReader<T>(path: string, parse: (text: string) => T): () => T | undefined {
  let cached: { mtimeMs: number; size: number; value: T | undefined } | undefined;
  return () => {
    try {
      const { mtimeMs, size } = statSync(path);
      if (!cached || cached.mtimeMs !== mtimeMs || cached.size !== size)
        cached = { mtimeMs, size, value: parse(readFileSync(path, 'utf8')) };
      return cached.value;
    } catch {
      cached = undefined;
      return undefined;
    }
  };
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
// At low priority, as the requests they stand for: never ahead of the stylesheet and the entry.
const scriptTag = (href: string) => `<link rel="preload" as="script" href="${attr(href)}" fetchpriority="low">`;
const styleTag = (href: string) => `<link rel="preload" as="style" href="${attr(href)}" fetchpriority="low">`;
/** The Module Federation runtime fetches a manifest with `fetch(url, {})`: CORS mode, same-origin credentials. */
const fetchTag = (href: string) => `<link rel="preload" as="fetch" crossorigin href="${attr(href)}" fetchpriority="low">`;

/** A remote's first files, from its mf-manifest.json: the manifest, its entry and what its exposed module needs at once. */
function remoteFirstFiles(manifestUrl: string, text: string): string[] {
  const manifest = JSON.parse(text) as {
    metaData?: { remoteEntry?: { name?: unknown; path?: unknown } };
    exposes?: { assets?: { js?: { sync?: unknown }; css?: { sync?: unknown } } }[];
  };
  const base = manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1);
  const names = (list: unknown) =>
    Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string' && /^[\w./-]+$/.test(n) && !n.includes('..')) : [];
  const tags = [fetchTag(manifestUrl)];
  const entry = manifest.metaData?.remoteEntry;
  if (typeof entry?.name === 'string' && /^[\w.-]+$/.test(entry.name)) {
    const path = typeof entry.path === 'string' && /^[\w/-]*$/.test(entry.path) ? entry.path.replace(/^\/+|\/+$/g, '') : '';
    tags.push(scriptTag(`${base}${path ? `${path}/` : ''}${entry.name}`));
  }
  for (const expose of manifest.exposes ?? []) {
    for (const file of names(expose.assets?.js?.sync)) tags.push(scriptTag(`${base}${file}`));
    for (const file of names(expose.assets?.css?.sync)) tags.push(styleTag(`${base}${file}`));
  }
  return tags;
}

/** Pages that show the login form to a signed-out visitor (as the shell's early-requests.ts). */
const LOGIN_PAGE = /^\/(?:login|admin|superadmin)(?:\/|$)/;

/**
 * index.html with `<link rel="preload">` tags for what the page's first screen needs beyond the
 * shell's own code (which the build already names in it), so that none of it waits for the code
 * before it to run: the login page's code for a signed-out visitor on a page that shows
 * it; on /kiosk, and on /worker with a session, the remote's manifest, entry and exposed module,
 * which would otherwise be asked for only after /config.json, then the manifest, had come back.
 * Only a remote this gateway serves itself (its default address) is named: its manifest is read
 * from its build, again whenever that changes.
 */
function indexPage(shellDist: string, root: string, config: GatewayConfig) {
  const readIndex = fileReader(join(shellDist, 'index.html'), (text) => text);
  const readShellPreloads = fileReader(join(shellDist, 'preload.json'), (text) => JSON.parse(text) as Record<string, unknown>);
  const remoteUrls: Partial<Record<(typeof REMOTES)[number], string | undefined>> = {
    worker: config.REMOTE_WORKER_URL,
    kiosk: config.REMOTE_KIOSK_URL,
  };
  const remoteReaders = Object.fromEntries(
    (['worker', 'kiosk'] as const).map((name) => {
      const url = `/remotes/${name}/mf-manifest.json`;
      const own = !remoteUrls[name] || remoteUrls[name] === url;
      return [
        name,
        own ? fileReader(join(root, name, 'dist', 'mf-manifest.json'), (text) => remoteFirstFiles(url, text)) : () => undefined,
      ];
    }),
  ) as Record<'worker' | 'kiosk', () => string[] | undefined>;

  return (req: Request): string | undefined => {
    const page = readIndex();
    if (page === undefined) return undefined;
    const signedIn = typeof req.cookies?.[SESSION_COOKIE] === 'string';
    const tags: string[] = [];
    if (!signedIn && LOGIN_PAGE.test(req.path)) {
      const login = readShellPreloads()?.login;
      if (Array.isArray(login))
        for (const file of login) if (typeof file === 'string' && /^[\w.-]+\.js$/.test(file)) tags.push(scriptTag(`/${file}`));
    }
    const remote = /^\/kiosk\/?$/.test(req.path) ? 'kiosk' : signedIn && /^\/worker\/?$/.test(req.path) ? 'worker' : null;
    if (remote) tags.push(...(remoteReaders[remote]() ?? []));
    if (tags.length === 0 || !page.includes('</head>')) return page;
    return page.replace('</head>', `${tags.join('')}</head>`);
  };
}

/** The shell and each remote's build, all on the gateway's one origin. */
export function frontendRouter(config: GatewayConfig): Router {
  const root = resolve(config.STATIC_DIR);
  const shellDist = join(root, 'shell', 'dist');
  const router = express.Router();
  // Files whose names carry no content hash: the browser asks again each time (the service worker
  // keeps its own copies for when there is no network).
  const noCacheFor = (path: string) => /(?:\.html|mf-manifest\.json|remoteEntry\.js|\/sw\.js|\/precache\.json|\.webmanifest)$/.test(path);
  const setHeaders = (res: Response, path: string) => {
    if (noCacheFor(path)) res.setHeader('Cache-Control', 'no-cache');
    else if (HASHED.test(path)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  };
  const staticOpts = { index: false, fallthrough: true, setHeaders };

  router.get('/config.json', (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.json({
      remotes: {
        worker: config.REMOTE_WORKER_URL ?? '/remotes/worker/mf-manifest.json',
        admin: config.REMOTE_ADMIN_URL ?? '/remotes/admin/mf-manifest.json',
        superadmin: config.REMOTE_SUPERADMIN_URL ?? '/remotes/superadmin/mf-manifest.json',
        kiosk: config.REMOTE_KIOSK_URL ?? '/remotes/kiosk/mf-manifest.json',
      },
    });
  });
  for (const remote of REMOTES) {
    const dist = join(root, remote, 'dist');
    router.use(`/remotes/${remote}`, precompressed(dist, setHeaders), express.static(dist, { ...staticOpts, fallthrough: false }));
  }
  router.use(precompressed(shellDist, setHeaders), express.static(shellDist, staticOpts));
  // Client-side routes (and unknown paths, which the shell renders as its 404 page). The probes
  // answer JSON to anyone, whatever they accept; /metrics is never served on this public port.
  const pageFor = indexPage(shellDist, root, config);
  router.get(/^\/(?!api\/|api$|scim\/|remotes\/|healthz$|readyz$|metrics$).*/, (req: Request, res: Response, next: NextFunction) => {
    if (!req.accepts('html')) return next();
    const page = pageFor(req);
    if (page === undefined) return next();
    res.setHeader('Cache-Control', 'no-cache');
    // The preloads named depend on the session cookie.
    res.vary('Cookie');
    syncHints(req, res, config.COOKIE_SECURE);
    res.type('html').send(page);
  });
  // What the static server refuses (no such file, a directory, a NUL or an encoded ../) is simply
  // not there: 404, never a 500 and never a hint of the file system.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const status = typeof err === 'object' && err !== null ? Number((err as { status?: unknown }).status) : NaN;
    if (!(status >= 400 && status < 500)) return next(err);
    res.status(404).json({ message: 'Not found' });
  });
  return router;
}
