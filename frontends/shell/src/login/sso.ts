// Single sign-on as the login page offers it. Free of imports, so that the page's entry can ask
// for the offer while the login page's code is still downloading (early-requests.ts).

/** Public: what the login page offers before anyone signs in. */
export const SSO_OFFER_PATH = '/api/auth/sso';
/** The gateway's page that sends the browser on to the organisation's provider. */
const SSO_START_PATH = '/api/auth/sso/start';

export interface SsoOffer {
  enabled: boolean;
  displayName: string;
  /** `break_glass`: only the superadmin signs in with a password. */
  passwordLogin: 'everyone' | 'break_glass';
}

/** GET /api/auth/sso; anything unexpected offers nothing, so the page stays the password form. */
export function parseSsoOffer(body: unknown): SsoOffer {
  const v = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return {
    enabled: v.enabled === true,
    displayName: typeof v.displayName === 'string' ? v.displayName.trim() : '',
    passwordLogin: v.passwordLogin === 'break_glass' ? 'break_glass' : 'everyone',
  };
}

/**
 * Where the single sign-on button goes. On /login the gateway sends the user to their home once
 * signed in, as the password form does; where the login form stands in for a page (/superadmin
 * signed out) the user comes back to that page.
 */
export function ssoStartHref(pathname: string, search: string): string {
  if (pathname === '/login' || !pathname.startsWith('/')) return SSO_START_PATH;
  const query = new URLSearchParams(search);
  query.delete('sso_error');
  const rest = query.toString();
  return `${SSO_START_PATH}?next=${encodeURIComponent(rest ? `${pathname}?${rest}` : pathname)}`;
}
