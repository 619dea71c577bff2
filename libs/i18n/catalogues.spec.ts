import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The translations are complete: every text the screens pass to `t()`, and every text a service
 * sends marked with `msg()`, is in every language's file
 * (libs/i18n/locales/<code>.json), with the same {{placeholders}}, and no file keeps a text no
 * screen shows any more. The screens listed in TRANSLATED show no text that skips `t()`: a screen
 * is never half translated.
 */

const root = join(__dirname, '..', '..');
const localesDir = join(__dirname, 'locales');

/** The screens that speak the user's language; the rest (the monitors' dashboards) are still English only. */
const TRANSLATED = [
  'frontends/worker/src',
  'frontends/kiosk/src',
  'frontends/shell/src/app',
  'frontends/shell/src/login',
  'frontends/shell/src/layout',
  'frontends/shell/src/cookie-consent',
  'frontends/shell/src/offline',
  'frontends/shell/src/remotes',
  'frontends/shell/src/not-found',
  'frontends/shell/src/routing',
  'frontends/shell/src/profile',
  'frontends/ui/src/components',
  'frontends/ui/src/session',
  'frontends/ui/src/toast',
  'frontends/ui/src/live',
  'frontends/superadmin/src',
  'frontends/monitor/src',
  'frontends/admin/src',
  'frontends/shell/src/alarms',
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.(spec|test)\.tsx?$/.test(name) && !name.endsWith('.node.ts') ? [path] : [];
  });
}

const unescaped = (text: string) => text.replace(/\\(['"`\\])/g, '$1').replace(/\\n/g, '\n');

/** Every literal text given to t() (or i18n.t()) or marked with msg() in the frontends, the services (texts, calls) and the shared schemas (the forms' messages), and where. */
function textsShown(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of [
    ...sources(join(root, 'frontends')),
    ...sources(join(root, 'services')),
    ...sources(join(root, 'libs', 'schemas', 'src')),
  ]) {
    const code = readFileSync(file, 'utf8');
    for (const m of code.matchAll(/\b(?:t|msg)\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g)) {
      if (m[1] === '`' && m[2].includes('${'))
        throw new Error(`${relative(root, file)}: t() of a template with \${}: use {{placeholders}}`);
      if (!found.has(unescaped(m[2]))) found.set(unescaped(m[2]), relative(root, file));
    }
  }
  return found;
}

/** A language file's settings besides its texts: its BCP 47 locale and the provider's voice for calls. */
const SETTINGS = ['@locale', '@voice'];

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

const catalogues = readdirSync(localesDir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({
    code: f.replace(/\.json$/, ''),
    texts: JSON.parse(readFileSync(join(localesDir, f), 'utf8')) as Record<string, unknown>,
  }));

describe('translations', () => {
  const shown = textsShown();

  it('finds the texts the screens show, and at least Welsh besides English', () => {
    expect(shown.size).toBeGreaterThan(50);
    expect(catalogues.map((c) => c.code)).toContain('cy');
  });

  describe.each(catalogues)('$code', ({ texts }) => {
    it('translates every text a screen shows, and keeps none that no screen shows', () => {
      const missing = [...shown]
        .filter(([text]) => typeof texts[text] !== 'string' || !(texts[text] as string).trim())
        .map(([text, file]) => `${file}: ${text}`);
      const stale = Object.keys(texts).filter((text) => !shown.has(text) && !SETTINGS.includes(text));
      expect({ missing, stale }).toEqual({ missing: [], stale: [] });
    });

    it('names the locale and the voice its calls speak in', () => {
      expect(texts['@locale']).toMatch(/^[a-z]{2,3}-[A-Z]{2}$/);
      expect(texts['@voice']).toMatch(/^\w+\.\w+/);
    });

    it('keeps the {{placeholders}} of each text', () => {
      const differ = Object.entries(texts).filter(
        ([text, translated]) => placeholders(text).join() !== placeholders(String(translated)).join(),
      );
      expect(differ).toEqual([]);
    });
  });

  it.each(TRANSLATED)('%s shows no text that skips t()', (dir) => {
    const untranslated: string[] = [];
    for (const file of sources(join(root, dir))) {
      if (!file.endsWith('.tsx') && !/toast\(|title:|message:/.test(readFileSync(file, 'utf8'))) continue;
      const code = readFileSync(file, 'utf8')
        // Comments say nothing on screen.
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      const where = relative(root, file);
      // Words between tags: <p>Some words</p>.
      for (const m of code.matchAll(/>([^<>{}();=]*[A-Za-z]{2,}[^<>{}();=]*)</g)) {
        const text = m[1].trim();
        if (text && !/^[\w.]+(\s*[=&|?:]+\s*[\w.]+)*$/.test(text) && /\s|[.!?:]$|^[A-Z]/.test(text))
          untranslated.push(`${where}: >${text}<`);
      }
      // Words in attributes a person reads or hears.
      for (const m of code.matchAll(/\b(title|aria-label|placeholder|label|alt|description)=(["'])([^"']*[A-Za-z]{2,}[^"']*)\2/g))
        untranslated.push(`${where}: ${m[1]}="${m[3]}"`);
      // Words in a toast or an object a screen shows: { title: 'Saved', message: '...' }.
      for (const m of code.matchAll(/\b(title|message|label|text):\s*(['"`])([^'"`]*[A-Za-z]{2,}\s[^'"`]*)\2/g))
        untranslated.push(`${where}: ${m[1]}: ${m[3]}`);
    }
    expect(untranslated).toEqual([]);
  });
});
