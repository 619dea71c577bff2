import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

// Every service, remote, library and proto file has an owning team in .github/CODEOWNERS, so a
// new one cannot land without someone answering for it.

const REPO = join(__dirname, '..', '..');
const rules = readFileSync(join(REPO, '.github', 'CODEOWNERS'), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => {
    const [pattern, ...owners] = line.split(/\s+/);
    return { pattern, owners };
  });

/** The owners of a path: the last rule that matches it (GitHub's order), ignoring the catch-all. */
function ownersOf(path: string): string[] {
  const match = (pattern: string) => {
    if (pattern === '*') return false;
    const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}${pattern.endsWith('/') ? '' : '$'}`);
    return re.test(path);
  };
  return [...rules].reverse().find((r) => match(r.pattern))?.owners ?? [];
}

const dirs = (parent: string) =>
  readdirSync(join(REPO, parent)).filter((name) => statSync(join(REPO, parent, name)).isDirectory() && name !== 'node_modules');

describe('CODEOWNERS', () => {
  it('names team owners only', () => {
    for (const { pattern, owners } of rules) {
      expect(owners.length).toBeGreaterThan(0);
      for (const owner of owners) expect(`${pattern} ${owner}`).toMatch(/ @lws-org\/[a-z-]+$/);
    }
  });

  it.each([
    ...dirs('services').map((d) => `/services/${d}/`),
    ...dirs('frontends').map((d) => `/frontends/${d}/`),
    ...dirs('libs').map((d) => `/libs/${d}/`),
    ...readdirSync(join(REPO, 'proto'))
      .filter((f) => f.endsWith('.proto') || f.endsWith('.json'))
      .map((f) => `/proto/${f}`),
  ])('gives %s an owner of its own', (path) => {
    expect(ownersOf(path)).not.toEqual([]);
  });

  it('gives each service its own team', () => {
    expect(ownersOf('/services/shifts/')).toEqual(['@lws-org/shifts']);
    expect(ownersOf('/proto/shifts.proto')).toEqual(['@lws-org/shifts']);
    expect(ownersOf('/frontends/admin/')).toEqual(['@lws-org/monitor-console']);
  });
});
