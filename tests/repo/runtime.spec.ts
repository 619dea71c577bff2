import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// The tests run on the Node.js the images ship (.nvmrc's major, node:24-bookworm-slim), not on
// whatever node the machine has: `npm test` fetches it (scripts/on-node.sh). Run by hand on
// another major, this fails and says how to get it.

const REPO = join(__dirname, '..', '..');
const wanted = readFileSync(join(REPO, '.nvmrc'), 'utf8').trim();
const major = (version: string) => version.replace(/^v/, '').split('.')[0];

describe('the runtime', () => {
  it(`is Node ${major(wanted)}, as the images and .nvmrc say (npm test runs on it; by hand: nvm use, or .runtime/ on PATH)`, () => {
    expect(`Node ${major(process.version)}`).toBe(`Node ${major(wanted)}`);
  });

  it('is the one the Dockerfile builds and runs on, and the one package.json asks for', () => {
    const froms = [...readFileSync(join(REPO, 'Dockerfile'), 'utf8').matchAll(/^FROM node:(\d+)-/gm)].map((m) => m[1]);
    expect(froms.length).toBeGreaterThan(0);
    expect(new Set(froms)).toEqual(new Set([major(wanted)]));
    const engines = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toMatch(new RegExp(`^>=${major(wanted)}\\.\\d+ <${Number(major(wanted)) + 1}$`));
  });

  it("asks for no other runtime when it already runs on the images' major", () => {
    const printed = execFileSync(process.execPath, [join(REPO, 'scripts', 'node-runtime.mjs'), '--bin'], {
      encoding: 'utf8',
      env: { ...process.env, LWS_SYSTEM_NODE: '' },
    });
    expect(printed).toBe('');
  });
});
