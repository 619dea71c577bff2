import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GatewayConfig } from '../config';

export const REMOTES = ['worker', 'admin', 'superadmin', 'kiosk'] as const;

/** The shell and each remote's build, all on the gateway's one origin. */
export function frontendRouter(config: GatewayConfig): Router {
  const root = resolve(config.STATIC_DIR);
  const shellDist = join(root, 'shell', 'dist');
  const router = express.Router();
  // Files whose names carry no content hash: the browser asks again each time (the service worker
  // keeps its own copies for when there is no network).
  const noCacheFor = (path: string) => /(?:\.html|mf-manifest\.json|remoteEntry\.js|\/sw\.js|\/precache\.json|\.webmanifest)$/.test(path);
  const staticOpts = {
    index: false,
    fallthrough: true,
    setHeaders: (res: Response, path: string) => {
      if (noCacheFor(path)) res.setHeader('Cache-Control', 'no-cache');
    },
  };

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
    router.use(`/remotes/${remote}`, express.static(join(root, remote, 'dist'), { ...staticOpts, fallthrough: false }));
  }
  router.use(express.static(shellDist, staticOpts));
  // Client-side routes (and unknown paths, which the shell renders as its 404 page). The probes
  // answer JSON to anyone, whatever they accept; /metrics is never served on this public port.
  router.get(/^\/(?!api\/|api$|remotes\/|healthz$|readyz$|metrics$).*/, (req: Request, res: Response, next: NextFunction) => {
    const index = join(shellDist, 'index.html');
    if (!req.accepts('html') || !existsSync(index)) return next();
    res.setHeader('Cache-Control', 'no-cache');
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
