/**
 * The translations: one file per language in libs/i18n/locales (`cy.json`: English text → Welsh),
 * each its own chunk, fetched when a user first needs that language. English is the source text
 * and needs no file. The bundler lists the folder at build time, so a new file is a new language.
 */
type Catalogue = Record<string, string>;

interface BundlerContext {
  keys(): string[];
  (id: string): Promise<{ default: Catalogue } | Catalogue>;
}

declare global {
  interface ImportMeta {
    webpackContext(request: string, options: { recursive?: boolean; regExp?: RegExp; mode?: 'lazy' }): BundlerContext;
  }
}

const files = import.meta.webpackContext('../../../../libs/i18n/locales', {
  recursive: false,
  regExp: /^\.\/[a-z]{2,3}(-[A-Z]{2})?\.json$/,
  mode: 'lazy',
});
const byCode = new Map(files.keys().map((key) => [key.replace(/^\.\//, '').replace(/\.json$/, ''), key]));

export const localeFiles = {
  codes: [...byCode.keys()].sort(),
  async load(code: string): Promise<Catalogue> {
    const key = byCode.get(code);
    if (!key) throw new Error(`No translations for ${code}`);
    const loaded = await files(key);
    return ('default' in loaded && typeof loaded.default === 'object' ? loaded.default : loaded) as Catalogue;
  },
};
