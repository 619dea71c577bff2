import express, { type NextFunction, type Request, type Response } from 'express';
import { bodyRefusal, sendScimError } from './scim-error';

const SCIM_PATH = /^\/scim\/v2(\/|$)/i;
/** A group of thousands with all its members fits; NATS carries a request of up to 1 MB. */
export const SCIM_BODY_LIMIT_KB = 512;

/** Provisioning (SCIM 2.0): authenticated by its bearer token alone, never by the session cookie. */
export const isScimRequest = (req: Request) => SCIM_PATH.test(req.path);

/**
 * A SCIM request's body as the text it was sent, for identity to read with scimmy: JSON as
 * `application/scim+json` (RFC 7644) or `application/json`, up to SCIM_BODY_LIMIT_KB. Registered
 * before the JSON parser, which then leaves it alone. What cannot be read is a SCIM error.
 */
export function scimBody() {
  const parse = express.text({ type: () => true, limit: `${SCIM_BODY_LIMIT_KB}kb` });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isScimRequest(req)) return next();
    if (Number(req.headers['content-length']) > SCIM_BODY_LIMIT_KB * 1024) {
      return sendScimError(res, 413, `The request body is too large (limit ${SCIM_BODY_LIMIT_KB} KB)`);
    }
    const type = req.headers['content-type'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && type !== undefined && !/^application\/(scim\+)?json\s*(;|$)/i.test(type)) {
      return sendScimError(res, 415, 'Send the body as application/scim+json');
    }
    parse(req, res, (err?: unknown) => {
      if (err === undefined) return next();
      const refusal = bodyRefusal(err, SCIM_BODY_LIMIT_KB);
      if (refusal) return sendScimError(res, refusal.status, refusal.detail, refusal.scimType);
      next(err);
    });
  };
}
