/// <reference types="node" />
/** locale-files.ts for Jest, which has no bundler to list the folder: the same files, read from disk. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(__dirname, '..', '..', '..', '..', 'libs', 'i18n', 'locales');
const codes = readdirSync(dir)
  .filter((f: string) => /^[a-z]{2,3}(-[A-Z]{2})?\.json$/.test(f))
  .map((f: string) => f.replace(/\.json$/, ''))
  .sort();

export const localeFiles = {
  codes,
  async load(code: string): Promise<Record<string, string>> {
    if (!codes.includes(code)) throw new Error(`No translations for ${code}`);
    return JSON.parse(readFileSync(join(dir, `${code}.json`), 'utf8')) as Record<string, string>;
  },
};
