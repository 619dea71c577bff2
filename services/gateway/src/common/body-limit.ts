import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BODY_LIMIT_KB } from './api-exception.filter';

/**
 * Every body but the superadmin's import file (`exempt`) is at most BODY_LIMIT_KB. One whose
 * Content-Length says it is larger is refused before any of it is read: the body parser would
 * read (and throw away) all of it first, so a sender of megabytes would hold the gateway, and hear
 * the refusal, only once everything had been sent.
 */
export function bodyLimit(exempt: (req: Request) => boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (Number(req.headers['content-length']) > BODY_LIMIT_KB * 1024 && !exempt(req)) {
      res.status(413).json({ message: `Request body is too large (limit ${BODY_LIMIT_KB} KB)` });
      return;
    }
    next();
  };
}
