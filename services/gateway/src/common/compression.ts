import compression from 'compression';
import type { Request, Response } from 'express';

/**
 * Compresses text answers: brotli when the browser takes it, else gzip, above 1 KB.
 * Never the live stream, whose every event must leave at once rather than wait in a compressor's
 * buffer, nor a file the build already compressed (static/frontends serves those as they are).
 */
export const responseCompression = compression({
  filter: (req: Request, res: Response) =>
    !req.path.startsWith('/api/events') && !res.getHeader('Content-Encoding') && compression.filter(req, res),
});
