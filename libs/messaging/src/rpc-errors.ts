import { RpcException } from '@nestjs/microservices';

export interface RpcErrorDetails {
  /** camelCase path of the offending input field, for a 400. */
  field?: string;
  /** Machine-readable reason, e.g. `username_taken`. */
  code?: string;
}

/**
 * Thrown by a command handler to answer with an error the caller may see: its status, message,
 * field and code reach the caller unchanged. Anything else a handler throws becomes a generic 500.
 */
export class RpcError extends RpcException {
  readonly status: number;
  readonly field?: string;
  readonly code?: string;

  constructor(status: number, message: string, details: RpcErrorDetails = {}) {
    super({ status, message, ...(details.field ? { field: details.field } : {}), ...(details.code ? { code: details.code } : {}) });
    this.name = 'RpcError';
    this.status = status;
    this.field = details.field;
    this.code = details.code;
  }
}

/** What a caller gets when a command fails, whatever the transport. */
export class RemoteError extends Error {
  readonly status: number;
  readonly field?: string;
  readonly code?: string;

  constructor(status: number, message: string, details: RpcErrorDetails = {}) {
    super(message);
    this.name = 'RemoteError';
    this.status = status;
    this.field = details.field;
    this.code = details.code;
  }
}

export const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/** Maps the `err` of a reply packet to a RemoteError; only RpcError details pass through. */
export function remoteErrorFromPacket(err: unknown, pattern: string): RemoteError {
  if (err && typeof err === 'object') {
    const e = err as Record<string, unknown>;
    if (typeof e.status === 'number' && Number.isInteger(e.status) && typeof e.message === 'string') {
      return new RemoteError(e.status, e.message, {
        field: typeof e.field === 'string' ? e.field : undefined,
        code: typeof e.code === 'string' ? e.code : undefined,
      });
    }
  }
  if (typeof err === 'string' && err.startsWith('There is no matching message handler')) {
    return new RemoteError(503, `No service is answering ${pattern}`);
  }
  return new RemoteError(500, INTERNAL_ERROR_MESSAGE);
}
