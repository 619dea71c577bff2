import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// react-router is bundled by the shell alone, cut down to what it uses, not shipped whole as a
// shared module (61 KB compressed on every page). A remote that imported it would carry
// a second router of its own, whose hooks throw outside the shell's <BrowserRouter>: a blank
// screen, found only in a browser. Remotes navigate with the `useNavigate` @lws/fe-ui re-exports.

const REPO = join(__dirname, '..', '..');
const REMOTES = ['worker', 'admin', 'superadmin', 'kiosk', 'monitor'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.spec\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('what a remote may import', () => {
  it.each(REMOTES)('the %s screens do not import react-router', (remote) => {
    const files = sources(join(REPO, 'frontends', remote, 'src'));
    expect(files.length).toBeGreaterThan(0);
    const importing = files.filter((file) => /from ['"]react-router(?:\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')));
    expect(importing.map((file) => file.slice(REPO.length + 1))).toEqual([]);
  });

  it('react-router is not a shared module of the federation', () => {
    const config = readFileSync(join(REPO, 'frontends/ui/build/rspack-config.mjs'), 'utf8');
    const shared = /export const sharedSingletons = \{([\s\S]*?)\n\};/.exec(config)?.[1] ?? '';
    const names = [...shared.matchAll(/^\s*'?([^':\s]+)'?:/gm)].map((m) => m[1]);
    expect(names).toEqual(expect.arrayContaining(['react', 'react-dom', '@lws/fe-ui']));
    expect(names).not.toContain('react-router');
  });
});
