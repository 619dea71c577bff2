import { startTracing } from '@lws/telemetry';
const tracing = startTracing('gateway');

import { ConfigError, onStopSignals } from '@lws/platform';
import { startGateway } from './app';

async function main() {
  try {
    const gateway = await startGateway();
    onStopSignals(async () => {
      await gateway.close();
      await tracing.shutdown();
      process.exit(0);
    });
  } catch (err) {
    process.stderr.write(
      `gateway: ${err instanceof ConfigError ? err.message : `failed to start: ${err instanceof Error ? err.stack : String(err)}`}\n`,
    );
    process.exit(1);
  }
}

void main();
