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

export function createLogger(service: string, level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: service,
      level,
      base: { service },
      redact: { paths: redactPaths, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}

/** Routes Nest's own log lines into the service's structured logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}
