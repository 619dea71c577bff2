import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendsBearer } from './bearer';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Twilio's webhooks: signed (notifications checks X-Twilio-Signature), sent by a server with no browser headers. */
const SIGNED_WEBHOOKS = /^\/webhooks\/twilio\//i;
/**
 * Provisioning (SCIM): its controller authenticates by the Authorization bearer token alone and
 * never reads the session cookie, so a forged cross-site request, which can carry the cookie but
 * not that header, can do nothing there.
 */
const BEARER_ONLY = /^\/scim\/v2(\/|$)/i;

export interface CsrfOptions {
  /** The origin browsers use to reach LWS (PUBLIC_ORIGIN); without it, the request's own host. */
  publicOrigin?: string;
  /** Behind a proxy the host browsers used is in X-Forwarded-Host. */
  trustProxy: boolean;
}

/**
 * CSRF, in two layers, on every state-changing request whatever its path or however the path is
 * spelled (routing ignores case, so a check on `/api/` alone was walked around with `/API/`):
 * 1. `X-Requested-With: XMLHttpRequest` is required: a cross-site form or image cannot set a
 *    custom header (on top of SameSite=Lax cookies);
 * 2. a request a browser marks as coming from another origin (`Sec-Fetch-Site` other than
 *    same-origin, or an `Origin` that is not LWS's own) is refused, even from a same-site page.
 * Only Twilio's signed webhooks, the bearer-token SCIM routes and requests with an API token are
 * exempt: the session guard judges a bearer request by its token alone, never by its cookies.
 */
export function csrfGuard(options: CsrfOptions): RequestHandler {
  const allowedOrigin = options.publicOrigin ? new URL(options.publicOrigin).origin : undefined;
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE.has(req.method) || SIGNED_WEBHOOKS.test(req.path) || BEARER_ONLY.test(req.path) || sendsBearer(req)) return next();
    if (req.get('x-requested-with') !== 'XMLHttpRequest') {
      res.status(403).json({ message: 'Missing X-Requested-With header (CSRF protection)' });
      return;
    }
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      res.status(403).json({ message: `Cross-origin request refused (Sec-Fetch-Site: ${site.slice(0, 20)})` });
      return;
    }
    const origin = req.get('origin');
    if (origin !== undefined && !sameOrigin(origin, req, allowedOrigin, options.trustProxy)) {
      res.status(403).json({ message: 'Cross-origin request refused (Origin is not this site)' });
      return;
    }
    next();
  };
}

function sameOrigin(origin: string, req: Request, allowed: string | undefined, trustProxy: boolean): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" (a sandboxed frame, a file) or garbage
  }
  if (allowed) return url.origin === allowed;
  const forwarded = trustProxy ? req.get('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const host = forwarded || req.get('host');
  return !!host && url.host.toLowerCase() === host.toLowerCase();
}

export function securityHeaders(req: Request, res: Response, next: NextFunction) {
  // Every API answer is someone's own data, and some carry a one-time PIN or password, medical
  // information or an emergency contact: no browser or proxy may keep a copy.
  if (/^\/api(\/|$)/i.test(req.path)) res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  );
  next();
}
