import { ArgumentsHost, Catch, HttpException, Inject, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { isInfrastructureFailure, RemoteError, TEMPORARILY_UNAVAILABLE } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';

/** Every API error is `{ message, field? }` with a status a client can act on; 5xx details stay in the log. */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(err: unknown, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    let status = 500;
    let body: { message: string; field?: string } = { message: 'Internal server error' };
    if (err instanceof HttpException) {
      status = err.getStatus();
      const r = err.getResponse();
      if (typeof r === 'string') body = { message: r };
      else {
        const o = r as { message?: unknown; field?: unknown };
        const message = Array.isArray(o.message) ? o.message.join(', ') : String(o.message ?? err.message);
        body = { message, ...(typeof o.field === 'string' ? { field: o.field } : {}) };
      }
    } else if (err instanceof RemoteError) {
      status = err.status;
      body =
        status >= 500
          ? { message: status === 503 ? TEMPORARILY_UNAVAILABLE : 'Internal server error' }
          : { message: err.message, ...(err.field ? { field: err.field } : {}) };
    } else if (isInfrastructureFailure(err)) {
      // The gateway's own store (Redis) is down: the request did nothing and may be retried.
      status = 503;
      body = { message: TEMPORARILY_UNAVAILABLE };
    } else {
      const bodyError = bodyParserError(err);
      if (bodyError) ({ status, body } = bodyError);
    }
    if (status === 503)
      this.logger.warn({ error: err instanceof Error ? err.message : String(err) }, 'request refused: a dependency is unavailable');
    else if (status >= 500) this.logger.error({ err }, 'request failed');
    res.status(status).json(body);
  }
}

/** The request body limit (Nest's JSON and form parsers). */
export const BODY_LIMIT_KB = 100;

/**
 * What the body parser refused, as the client's fault: a body that is not JSON (400), too large
 * (413), in a charset or content encoding it does not read (415), or that cannot be decompressed
 * or was cut short (400). Its own wording (zlib's, say) is not passed on.
 */
function bodyParserError(err: unknown): { status: number; body: { message: string } } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, status, expose, message } = err as { type?: unknown; status?: unknown; expose?: unknown; message?: unknown };
  if (type === 'entity.parse.failed') return { status: 400, body: { message: 'Request body is not valid JSON' } };
  if (type === 'entity.too.large') return { status: 413, body: { message: `Request body is too large (limit ${BODY_LIMIT_KB} KB)` } };
  if (type === 'charset.unsupported')
    return {
      status: 415,
      body: {
        message: `Unsupported charset: ${String(message)
          .replace(/^unsupported charset /, '')
          .slice(0, 40)} (use utf-8)`,
      },
    };
  if (type === 'encoding.unsupported')
    return { status: 415, body: { message: 'Unsupported Content-Encoding (use gzip, deflate, br or none)' } };
  if (typeof status === 'number' && status >= 400 && status < 500 && expose === true) {
    return { status: 400, body: { message: 'Request body could not be read (broken compression or cut short)' } };
  }
  return undefined;
}
