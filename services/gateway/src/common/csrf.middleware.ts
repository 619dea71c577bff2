import type { NextFunction, Request, Response } from 'express';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A cross-site form or image cannot set custom headers, so requiring
 * `X-Requested-With: XMLHttpRequest` on every state-changing API call (on top of
 * SameSite=Lax cookies) blocks CSRF.
 */
export function csrfGuard(req: Request, res: Response, next: NextFunction) {
  if (SAFE.has(req.method) || !req.path.startsWith('/api/')) return next();
  if (req.get('x-requested-with') !== 'XMLHttpRequest') {
    res.status(403).json({ message: 'Missing X-Requested-With header (CSRF protection)' });
    return;
  }
  next();
}

export function securityHeaders(_req: Request, res: Response, next: NextFunction) {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  );
  next();
}
