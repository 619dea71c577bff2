import express, { type NextFunction, type Request, type Response } from 'express';
import { SESSION_COOKIE } from '../sessions/cookies';
import { IMPORT_LIMIT_MB } from './import-csv';

const IMPORT_PATH = /^\/api\/users\/import\/?$/i;

/**
 * The one route that takes a file: POST /api/users/import reads `text/csv` up to IMPORT_LIMIT_MB
 * (every other body stays under the 100 KB JSON limit), and only for a caller holding a session
 * cookie. Same charsets and encodings as the JSON parser, so the exception filter words its
 * refusals; a file too large names the import's limit.
 */
export function importBody() {
  const parse = express.text({ type: 'text/csv', limit: `${IMPORT_LIMIT_MB}mb` });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || !IMPORT_PATH.test(req.path)) return next();
    // Read a large body only for a caller with a session: anyone else gets the guard's 401 without
    // making the gateway buffer up to IMPORT_LIMIT_MB first.
    if (!(req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE]) return next();
    parse(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === 'entity.too.large') {
        res.status(413).json({ message: `The file is too large (limit ${IMPORT_LIMIT_MB} MB)`, field: 'file' });
        return;
      }
      next(err);
    });
  };
}
