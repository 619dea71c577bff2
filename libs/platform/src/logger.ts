import pino, { type Logger } from 'pino';
import type { LoggerService } from '@nestjs/common';

export type { Logger };

/** Keys whose values never reach a log line, wherever they appear in a logged object. */
export const REDACTED_KEYS = [
  'password',
  'currentPassword',
  'newPassword',
  'pin',
  'pinCode',
  'pin_code',
  'pinHash',
  'passwordHash',
  'hash',
  'sessionId',
  'sid',
  'cookie',
  'authorization',
  'token',
  'secret',
];

const redactPaths = REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`, `req.headers.${k}`]);

/**
 * Drizzle's query errors read "Failed query: <sql>\nparams: <values>"; the values can be password
 * or PIN hashes, so they never reach a log.
 */
export function scrubQueryParams(text: string): string {
  return text.replace(/(\bparams: )[^\n]*/g, '$1[redacted]');
}

/**
 * Errors keep only what an operator needs. pino's default copies every enumerable property,
 * which for a database error includes the whole client with its connection parameters.
 */
export function serializeError(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const e = value as Error & { code?: unknown; status?: unknown; cause?: unknown };
  return {
    type: e.constructor?.name ?? 'Error',
    message: scrubQueryParams(e.message),
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: e.code } : {}),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    stack: e.stack === undefined ? undefined : scrubQueryParams(e.stack),
    ...(e.cause instanceof Error ? { cause: serializeError(e.cause) } : {}),
  };
}

export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: { err: serializeError, error: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/** Routes Nest's own log lines into the service's structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, text(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace: trace === undefined ? undefined : scrubQueryParams(String(trace)) }, text(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, text(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, text(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, text(message));
  }
}

function text(message: unknown): string {
  if (message instanceof Error) return scrubQueryParams(message.stack ?? message.message);
  return scrubQueryParams(String(message));
}
