import { useCallback, useSyncExternalStore } from 'react';
import type { i18n as I18next } from 'i18next';
import { localeFiles } from './locale-files';

/**
 * Every text on screen is written in English in the code and shown through `t()`: the English is
 * the key, and each language's file (libs/i18n/locales/<code>.json) maps it to that language. A
 * text a file lacks shows in English (a test makes sure none does). Server messages (a refusal's
 * `message`) go through `t()` as well, so a known one is shown in the user's language.
 *
 * English needs no translating, only its {{placeholders}} filled: i18next, which translates, is
 * fetched with the first other language shown, so a page in English (the login page on a cheap
 * phone) neither downloads nor runs it.
 */
export const SOURCE_LANGUAGE = 'en';
export const LANGUAGES: readonly string[] = [SOURCE_LANGUAGE, ...localeFiles.codes.filter((c) => c !== SOURCE_LANGUAGE)];

/** The language chosen on this device (the kiosk's switch, the login page's), before anyone signs in. */
const DEVICE_CHOICE_KEY = 'lws-language';

export type TranslateValues = Record<string, unknown>;
export type Translate = (text: string, values?: TranslateValues) => string;

/** English as it is, its {{placeholders}} filled: what a helper writes when no screen passes its `t()`. */
export const english: Translate = (text, values) =>
  values ? text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : text;

let shown = SOURCE_LANGUAGE;
let engine: I18next | undefined;
const listeners = new Set<() => void>();

async function loadEngine(): Promise<I18next> {
  if (engine) return engine;
  const { default: i18next } = await import('i18next');
  const instance = i18next.createInstance();
  await instance.init({
    lng: SOURCE_LANGUAGE,
    fallbackLng: SOURCE_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources: { [SOURCE_LANGUAGE]: { translation: {} } },
    // English sentences are the keys: neither '.' nor ':' means anything in them.
    keySeparator: false,
    nsSeparator: false,
    returnEmptyString: false,
    interpolation: { escapeValue: false },
  });
  engine ??= instance;
  return engine;
}

const translate = (language: string): Translate =>
  language === SOURCE_LANGUAGE || !engine ? english : (text, values) => engine!.t(text, { ...values, lng: language });

/** The translating function outside React (a message built as data is parsed), in the language shown now. */
export const i18n = {
  t: (text: string, values?: TranslateValues): string => translate(shown)(text, values),
  get language(): string {
    return shown;
  },
};

export const isLanguage = (code: unknown): code is string => typeof code === 'string' && LANGUAGES.includes(code);

/**
 * Languages' names for themselves, for a browser whose Intl data lacks the language (Debian's
 * Chromium names Welsh "Welsh" in Welsh too): the UK's and its largest communities' languages.
 */
const OWN_NAMES: Readonly<Record<string, string>> = {
  en: 'English',
  cy: 'Cymraeg',
  gd: 'Gàidhlig',
  ga: 'Gaeilge',
  kw: 'Kernewek',
  pl: 'Polski',
  ro: 'Română',
  pa: 'ਪੰਜਾਬੀ',
  ur: 'اردو',
  bn: 'বাংলা',
  ar: 'العربية',
  pt: 'Português',
  es: 'Español',
  fr: 'Français',
  so: 'Soomaali',
};

const displayName = (code: string, inLanguage: string): string | undefined => {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language', fallback: 'none' }).of(code) ?? undefined;
  } catch {
    return undefined;
  }
};

/** The language's own name for itself ("Cymraeg"), for a switch that speaks to whoever reads it. */
export function languageName(code: string): string {
  if (OWN_NAMES[code]) return OWN_NAMES[code];
  const own = displayName(code, code);
  // The same as its English name: the browser does not know the language, and answered in English.
  const name = own && (own !== displayName(code, 'en') || code === SOURCE_LANGUAGE) ? own : (displayName(code, 'en') ?? code);
  return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
}

/**
 * Shows the screens in `code` (its file fetched once). `remember`: kept as this device's choice,
 * for the next visit before anyone signs in.
 */
export async function setLanguage(code: string, { remember = false } = {}): Promise<void> {
  const next = isLanguage(code) ? code : SOURCE_LANGUAGE;
  if (next !== SOURCE_LANGUAGE) {
    const loaded = await loadEngine();
    if (!loaded.hasResourceBundle(next, 'translation')) loaded.addResourceBundle(next, 'translation', await localeFiles.load(next));
  }
  if (remember) {
    try {
      localStorage.setItem(DEVICE_CHOICE_KEY, next);
    } catch {
      // Private browsing without storage: the choice lasts this visit.
    }
  }
  if (typeof document !== 'undefined') document.documentElement.lang = next;
  if (shown !== next) {
    shown = next;
    for (const listener of listeners) listener();
  }
}

/** This device's language: the one chosen here before, else the browser's first we have, else English. */
export function deviceLanguage(): string {
  try {
    const chosen = localStorage.getItem(DEVICE_CHOICE_KEY);
    if (isLanguage(chosen)) return chosen;
  } catch {
    // No storage: the browser's languages decide.
  }
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of wanted) {
    const code = tag?.split('-')[0]?.toLowerCase();
    if (isLanguage(code)) return code;
  }
  return SOURCE_LANGUAGE;
}

/**
 * Marks an English text kept outside a component (a constant, a table of messages) as one to
 * translate: it returns the text as it is, and the screen shows it through `t(text)`. The
 * translations test finds the texts by this mark, as it finds those given to `t()`.
 */
export const msg = <T extends string>(text: T): T => text;

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};
const current = () => shown;

/** The translating function for a screen; the screen re-renders when the language changes (and `t` changes with it). */
export function useT(): Translate {
  const language = useSyncExternalStore(subscribe, current, current);
  // A new function for each language, so the effects and memos that use it follow the change.
  return useCallback(translate(language), [language]);
}

/** The language shown now and the way to change it, for a switch. */
export function useLanguage(): { language: string; languages: readonly string[]; setLanguage: typeof setLanguage } {
  const language = useSyncExternalStore(subscribe, current, current);
  return { language, languages: LANGUAGES, setLanguage };
}
