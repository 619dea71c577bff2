import type { NextFunction, Request, Response } from 'express';
import { metrics } from '@lws/platform';

/**
 * Counts and times every answer by route pattern (`/api/users/:id`, never the id itself, so the
 * series stay few); the shell and remotes count as `static`, an unknown API path as `unmatched`.
 */
export function httpMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = performance.now();
  res.once('finish', () => {
    const pattern = typeof req.route?.path === 'string' ? `${req.baseUrl}${req.route.path}` : undefined;
    const route = pattern?.startsWith('/') && !pattern.includes('(') ? pattern : req.path.startsWith('/api') ? 'unmatched' : 'static';
    const labels = { service: 'gateway', method: req.method, route, status: String(res.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, (performance.now() - started) / 1000);
  });
  next();
}
