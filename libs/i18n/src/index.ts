import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The languages LWS speaks: English, the language every text is written in, and one file per
 * other language in locales/ (`cy.json`: each English text and its Welsh). Adding a language is
 * adding its file; the services and the screens find it there.
 */
export const SOURCE_LANGUAGE = 'en';

const LOCALES_DIR = join(__dirname, '..', 'locales');
const FILE = /^([a-z]{2,3})\.json$/;

let known: readonly string[] | undefined;
const catalogues = new Map<string, Readonly<Record<string, string>>>();

/** Every language code LWS speaks, English first. */
export function languages(): readonly string[] {
  known ??= [
    SOURCE_LANGUAGE,
    ...readdirSync(LOCALES_DIR)
      .flatMap((f) => (FILE.exec(f)?.[1] ?? []) as string[])
      .filter((c) => c !== SOURCE_LANGUAGE)
      .sort(),
  ];
  return known;
}

export const isLanguage = (code: unknown): code is string => typeof code === 'string' && languages().includes(code);

function catalogue(code: string): Readonly<Record<string, string>> {
  let texts = catalogues.get(code);
  if (!texts) {
    texts =
      code === SOURCE_LANGUAGE || !isLanguage(code)
        ? {}
        : (JSON.parse(readFileSync(join(LOCALES_DIR, `${code}.json`), 'utf8')) as Record<string, string>);
    catalogues.set(code, texts);
  }
  return texts;
}

/**
 * Marks an English text a service sends (an SMS, a call) as one to translate: it returns the text
 * as it is. The translations test finds the texts by this mark, as it finds the screens' t().
 */
export const msg = <T extends string>(text: T): T => text;

/** The English `text` in `language` (English when that language lacks it), its {{placeholders}} filled. */
export function translate(language: string | null | undefined, text: string, values: Record<string, string | number> = {}): string {
  const chosen = catalogue(language ?? SOURCE_LANGUAGE)[text] ?? text;
  return chosen.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/**
 * How a call speaks `language`: its file's "@locale" (the BCP 47 tag Twilio's <Say> takes) and
 * "@voice" (a voice that speaks it, e.g. Polly.Gwyneth for cy-GB). English, and a language whose
 * file names no voice, are spoken in the provider's default voice.
 */
export function voiceOf(language: string | null | undefined): { language: string; voice: string } | undefined {
  const texts = catalogue(language ?? SOURCE_LANGUAGE);
  const [locale, voice] = [texts['@locale'], texts['@voice']];
  return locale && voice ? { language: locale, voice } : undefined;
}
