// Installed size of each service image's files (what scripts/image.mjs assembles and the
// Dockerfile copies onto node:24-bookworm-slim), against the whole workspace's node_modules
// that every image used to ship. Needs a built checkout (npm run build).
//   node bench/images.mjs [service ...]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assembleImage, SERVICES, sizeOf } from '../scripts/image.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const wanted = process.argv.slice(2);
const services = wanted.length ? wanted : Object.keys(SERVICES);
const work = mkdtempSync(join(tmpdir(), 'lws-image-sizes-'));

try {
  const workspace = sizeOf(join(root, 'node_modules'));
  console.log(`The workspace's node_modules (what each image shipped before): ${mib(workspace)} MiB`);
  console.log('');
  console.log('image                packages   MiB (app files and node_modules, without the Node base image)');
  for (const service of services) {
    const { packages, bytes } = assembleImage(service, join(work, service), { quiet: true });
    console.log(`${`lws/${service}`.padEnd(20)} ${String(packages.length).padStart(8)}   ${mib(bytes).padStart(5)}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
