import type { Logger } from 'pino';

/**
 * Logs a loop's failures the way an operator wants to read them during an outage: the first at
 * error level with the cause, the repeats at debug (a loop that ticks four times a second would
 * otherwise write hundreds of identical lines a minute), and one line when it works again, with
 * how long it failed and how many times.
 */
export class OutageLog {
  private since?: number;
  private failures = 0;

  constructor(
    private readonly logger: Logger,
    private readonly what: string,
  ) {}

  get failing(): boolean {
    return this.since !== undefined;
  }

  failed(err: unknown, context: Record<string, unknown> = {}): void {
    this.failures++;
    if (this.since === undefined) {
      this.since = Date.now();
      this.logger.error({ ...context, err }, `${this.what} failed; retrying until it works`);
    } else {
      this.logger.debug({ ...context, err, failures: this.failures }, `${this.what} still failing`);
    }
  }

  succeeded(): void {
    if (this.since === undefined) return;
    this.logger.info({ outageMs: Date.now() - this.since, failures: this.failures }, `${this.what} works again`);
    this.since = undefined;
    this.failures = 0;
  }
}
