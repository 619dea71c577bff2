import { ArgumentsHost, Catch, HttpException, Inject, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { isInfrastructureFailure, RemoteError, TEMPORARILY_UNAVAILABLE } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';

export const SCIM_CONTENT_TYPE = 'application/scim+json';
const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/**
 * A SCIM error (RFC 7644 section 3.12) for what the gateway itself refuses before identity reads
 * the request (no token, too many requests, a body it cannot read). Identity words every other
 * error with scimmy.
 */
export function sendScimError(res: Response, status: number, detail: string, scimType?: string): void {
  res
    .status(status)
    .type(SCIM_CONTENT_TYPE)
    .send(JSON.stringify({ schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail }));
}

/** The body parser's refusal as a SCIM error; undefined for anything else. */
export function bodyRefusal(err: unknown, limitKb: number): { status: number; detail: string; scimType?: string } | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { type, status } = err as { type?: unknown; status?: unknown };
  if (type === 'entity.too.large') return { status: 413, detail: `The request body is too large (limit ${limitKb} KB)` };
  if (type === 'charset.unsupported' || type === 'encoding.unsupported')
    return { status: 415, detail: 'Unsupported charset or Content-Encoding (use utf-8, and gzip, deflate, br or none)' };
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status: 400, detail: 'The request body could not be read', scimType: 'invalidSyntax' };
  return undefined;
}

/** Every error on /scim/v2 as a SCIM error body: a provisioning client reads no other shape. */
@Catch()
export class ScimExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    if (err instanceof HttpException) {
      const r = err.getResponse();
      const message = typeof r === 'string' ? r : String((r as { message?: unknown }).message ?? err.message);
      const status = err.getStatus();
      sendScimError(res, status, message, status === 400 ? 'invalidValue' : undefined);
    } else if (err instanceof RemoteError && err.status < 500) {
      sendScimError(res, 400, err.message, 'invalidValue');
    } else if ((err instanceof RemoteError && err.status === 503) || isInfrastructureFailure(err)) {
      this.logger.warn({ error: err instanceof Error ? err.message : String(err) }, 'SCIM request refused: a dependency is unavailable');
      res.setHeader('Retry-After', '30');
      sendScimError(res, 503, TEMPORARILY_UNAVAILABLE);
    } else {
      this.logger.error({ err }, 'SCIM request failed');
      sendScimError(res, 500, 'Internal server error');
    }
  }
}
