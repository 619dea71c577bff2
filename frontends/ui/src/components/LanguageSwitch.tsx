import { languageName, useLanguage, useT } from '../i18n/i18n';

/**
 * The languages LWS speaks, each named in itself ("English", "Cymraeg"), for a screen nobody has
 * signed in to yet (the kiosk, the login page). The choice is kept on this device.
 */
export function LanguageSwitch() {
  const t = useT();
  const { language, languages, setLanguage } = useLanguage();
  if (languages.length < 2) return null;
  return (
    <div className="lws-language-switch" role="group" aria-label={t('Language')} data-testid="language-switch">
      {languages.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          className="lws-language-switch__option"
          aria-pressed={code === language}
          onClick={() => void setLanguage(code, { remember: true }).catch((e: unknown) => console.error('Changing the language failed', e))}
          data-testid={`language-${code}`}
        >
          {languageName(code)}
        </button>
      ))}
    </div>
  );
}
