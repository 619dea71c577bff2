import type { Logger } from './logger';

/**
 * A process's shutdown steps, run last-added first. A step that fails is logged and the rest still
 * run; a step that is still running after `warnAfterMs` is named at warn level every `warnAfterMs`
 * until it ends, so a shutdown that hangs says where (an orchestrator's SIGKILL would not).
 */
export class Shutdown {
  private readonly steps: { name: string; run: () => unknown }[] = [];

  constructor(
    private readonly logger: Pick<Logger, 'warn' | 'error' | 'debug'>,
    private readonly warnAfterMs = 10_000,
  ) {}

  add(name: string, run: () => unknown): void {
    this.steps.push({ name, run });
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      const started = Date.now();
      const waiting = setInterval(
        () => this.logger.warn({ step: step.name, waitedMs: Date.now() - started }, `shutdown step "${step.name}" is still running`),
        this.warnAfterMs,
      );
      try {
        await step.run();
      } catch (err) {
        this.logger.error({ err, step: step.name }, `shutdown step "${step.name}" failed`);
      } finally {
        clearInterval(waiting);
      }
      this.logger.debug({ step: step.name, ms: Date.now() - started }, 'shutdown step done');
    }
  }
}

/**
 * SIGINT and SIGTERM run `stop` (which ends the process); a second signal while it runs exits at
 * once. What was in hand is safe either way (claims and leases lapse, outbox rows stay
 * unpublished); only the graceful hand-over is skipped, as an orchestrator's SIGKILL would.
 */
export function onStopSignals(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: stopping at once\n`);
      process.exit(1);
    }
    stopping = true;
    void stop(signal);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
