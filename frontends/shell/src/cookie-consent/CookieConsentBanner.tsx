import { useEffect, useRef, useState } from 'react';
import { Button, useT } from '@lws/fe-ui';

export const COOKIE_CONSENT_KEY = 'cookieConsent';
export const COOKIE_BANNER_DELAY_MS = 1000;
/** Lets the page leave room below its content so the banner never hides a button. */
const SPACE_VARIABLE = '--lws-cookie-banner-space';

function storedConsent(): string | null {
  try {
    return localStorage.getItem(COOKIE_CONSENT_KEY);
  } catch {
    return null;
  }
}

function storeConsent(value: 'accepted' | 'declined'): void {
  try {
    localStorage.setItem(COOKIE_CONSENT_KEY, value);
  } catch {
    // Without storage the banner simply shows again next visit.
  }
}

/**
 * Shown a second after load until accepted. Declining is remembered only as
 * "declined", so the question comes back on the next visit; closing stores nothing.
 */
export function CookieConsentBanner() {
  const t = useT();
  const [visible, setVisible] = useState(false);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (storedConsent() !== 'accepted') setVisible(true);
    }, COOKIE_BANNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    const banner = ref.current;
    if (!visible || !banner) return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      root.style.setProperty(SPACE_VARIABLE, `${banner.offsetHeight + 16}px`);
    });
    observer.observe(banner);
    return () => {
      observer.disconnect();
      root.style.removeProperty(SPACE_VARIABLE);
    };
  }, [visible]);

  if (!visible) return null;

  const answer = (value: 'accepted' | 'declined') => {
    storeConsent(value);
    setVisible(false);
  };

  return (
    <section ref={ref} className="lws-cookie-banner" aria-labelledby="lws-cookie-title" data-testid="cookie-banner">
      <div className="lws-cookie-banner__content">
        <h2 id="lws-cookie-title" className="lws-cookie-banner__title">
          {t('Cookies')}
        </h2>
        <p>
          {t(
            'We use essential cookies to keep you logged in (for up to 7 days when you choose "Remember me") and to remember your preferences. We do not use advertising or tracking cookies.',
          )}
        </p>
        <div className="lws-actions">
          <Button size="sm" onClick={() => answer('accepted')} data-testid="cookie-accept">
            {t('Accept')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => answer('declined')} data-testid="cookie-decline">
            {t('Decline')}
          </Button>
        </div>
      </div>
      <button
        type="button"
        className="lws-cookie-banner__close"
        aria-label={t('Close cookie notice')}
        onClick={() => setVisible(false)}
        data-testid="cookie-close"
      >
        <span aria-hidden="true">×</span>
      </button>
    </section>
  );
}
