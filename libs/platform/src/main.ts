import type { Tracing } from '@lws/telemetry';
import { ConfigError } from './config';
import { migrateOnly, startService, type ServiceDefinition } from './bootstrap';
import { onStopSignals } from './shutdown';

/** The body of every service's main.ts: start, stop cleanly on a signal, fail loudly. */
export async function runMain(def: ServiceDefinition, tracing: Tracing, argv = process.argv): Promise<void> {
  try {
    if (argv.includes('--migrate-only')) {
      await migrateOnly(def);
      await tracing.shutdown();
      return;
    }
    const service = await startService(def);
    onStopSignals(async (signal) => {
      service.logger.info({ signal }, 'shutting down');
      await service.close();
      await tracing.shutdown();
      process.exit(0);
    });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${def.name}: ${err.message}\n`);
    } else {
      process.stderr.write(`${def.name}: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    }
    process.exit(1);
  }
}
