import express, { type NextFunction, type Request, type Response } from 'express';
import { sendsBearer } from '../common/bearer';
import { NOT_AUTHENTICATED, ROLE_NOT_ALLOWED, sessionIdOf, TOKEN_NOT_ACCEPTED } from '../common/session.guard';
import type { SessionStore } from '../sessions/session.store';
import { IMPORT_LIMIT_MB } from './import-csv';

const IMPORT_PATH = /^\/api\/users\/import\/?$/i;
const IMPORT_LIMIT_BYTES = IMPORT_LIMIT_MB * 1024 * 1024;

/** POST /api/users/import: the one route whose body may be larger than the JSON limit. */
export const isImportRequest = (req: Request) => req.method === 'POST' && IMPORT_PATH.test(req.path);

/**
 * The one route that takes a file: POST /api/users/import reads `text/csv` up to IMPORT_LIMIT_MB
 * (every other body stays under the 100 KB JSON limit), and only for a signed-in superadmin. The
 * session is looked up before any of the body is read: anyone else gets the guard's answer (401
 * without a session, a forged or expired one included; 403 for another role) while they may still
 * be sending, and the gateway never buffers their body. A body that says it is over the limit is a
 * 413 from its Content-Length, before it is read. Same charsets and encodings as the JSON parser,
 * so the exception filter words its refusals; a file too large names the import's limit.
 */
export function importBody(sessions: SessionStore) {
  const parse = express.text({ type: 'text/csv', limit: IMPORT_LIMIT_BYTES });
  const tooLarge = (res: Response) =>
    res.status(413).json({ message: `The file is too large (limit ${IMPORT_LIMIT_MB} MB)`, field: 'file' });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isImportRequest(req)) return next();
    // A machine's token opens nothing here (the route has no scope), whatever cookie comes with it.
    if (sendsBearer(req)) return void res.status(403).json({ message: TOKEN_NOT_ACCEPTED });
    const id = sessionIdOf(req);
    // A store that fails leaves the answer to the guard, which asks it again (503).
    void (id ? sessions.get(id) : Promise.resolve(undefined)).then(
      (session) => {
        if (!session) return void res.status(401).json({ message: NOT_AUTHENTICATED });
        if (session.role !== 'superadmin') return void res.status(403).json({ message: ROLE_NOT_ALLOWED });
        if (Number(req.headers['content-length']) > IMPORT_LIMIT_BYTES) return void tooLarge(res);
        parse(req, res, (err?: unknown) => {
          if ((err as { type?: string } | undefined)?.type === 'entity.too.large') return void tooLarge(res);
          next(err);
        });
      },
      () => next(),
    );
  };
}
