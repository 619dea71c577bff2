// The benchmark's "two" layout: every backend service (not the gateway) in this one process, over
// NATS, each started the way its own main.js starts it (runMain → startService). Stops on SIGTERM.
const { join } = require('node:path');
const root = join(__dirname, '..', '..');
const { BACKEND } = require(join(root, 'tools/stack/dist/index.js'));
const { startService } = require(join(root, 'libs/platform/dist/index.js'));

async function main() {
  const running = [];
  const stop = async () => {
    for (const s of running.splice(0).reverse()) await s.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  for (const def of BACKEND) running.push(await startService(def));
}

main().catch((err) => {
  process.stderr.write(`backend: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
