import { existsSync, readdirSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GatewayConfig } from '../config';
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
  router.get(/^\/(?!api\/|api$|remotes\/|healthz$|readyz$|metrics$).*/, (req: Request, res: Response, next: NextFunction) => {
    const index = join(shellDist, 'index.html');
    if (!req.accepts('html') || !existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    syncHints(req, res, config.COOKIE_SECURE);
    res.sendFile(index);
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
