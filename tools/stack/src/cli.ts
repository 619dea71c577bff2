import { startTracing } from '@lws/telemetry';
const tracing = startTracing('stack');

import { ConfigError, onStopSignals } from '@lws/platform';
import { startStack } from './index';

/** `npm start`: every service in one process, then the URL and how to log in. */
async function main() {
  const notes: string[] = [];
  const stack = await startStack({ announce: (m) => notes.push(m) });
  const mode = stack.embedded
    ? `embedded (PGlite under ${process.env.DATA_DIR ?? '.data'}/, in-process bus, in-memory sessions)`
    : 'servers (DATABASE_URL / NATS_URL / REDIS_URL)';
  const lines = [
    '',
    `LWS is running: ${stack.url}`,
    `Mode: ${mode}`,
    `Metrics (Prometheus): ${stack.metricsUrl}`,
    ...(notes.length > 0
      ? notes
      : [
          'Superadmin: the account created on first start (username from LWS_SUPERADMIN_USERNAME, default "superadmin"); its password was shown then.',
        ]),
    'Press Ctrl-C to stop.',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  onStopSignals(async () => {
    process.stdout.write('\nStopping LWS...\n');
    await stack.close();
    await tracing.shutdown();
    process.exit(0);
  });
}

main().catch((err) => {
  process.stderr.write(
    `${err instanceof ConfigError ? err.message : `LWS failed to start: ${err instanceof Error ? err.stack : String(err)}`}\n`,
  );
  process.exit(1);
});
