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
      body = status >= 500 ? { message: status === 503 ? TEMPORARILY_UNAVAILABLE : 'Internal server error' } : { message: err.message, ...(err.field ? { field: err.field } : {}) };
    } else if (isInfrastructureFailure(err)) {
      // The gateway's own store (Redis) is down: the request did nothing and may be retried.
      status = 503;
      body = { message: TEMPORARILY_UNAVAILABLE };
    } else if (isBodyParserError(err)) {
      status = 400;
      body = { message: 'Request body is not valid JSON' };
    }
    if (status === 503) this.logger.warn({ error: err instanceof Error ? err.message : String(err) }, 'request refused: a dependency is unavailable');
    else if (status >= 500) this.logger.error({ err }, 'request failed');
    res.status(status).json(body);
  }
}

function isBodyParserError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { type?: string }).type === 'entity.parse.failed';
}
