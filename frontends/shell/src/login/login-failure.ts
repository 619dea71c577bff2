import { AuthError, msg } from '@lws/fe-ui';

export const INVALID_CREDENTIALS = msg('Invalid username or password');

/**
 * What the login form says about a failed attempt (in English: the form shows it through `t()`). Wrong
 * credentials never reveal which of the two was wrong.
 */
export function loginFailureText(error: unknown): string {
  if (error instanceof AuthError) {
    if (error.status === 429 || error.status === 400) return error.serverMessage ?? INVALID_CREDENTIALS;
    if (error.status === undefined) return msg('Could not reach the server. Check your connection and try again.');
    if (error.status >= 500) return msg('Login is unavailable right now. Please try again in a moment.');
  }
  return INVALID_CREDENTIALS;
}

const SSO_FAILURES: Readonly<Record<string, string>> = {
  refused: msg("Your organisation's sign-in worked, but you have no LWS account, or it is disabled. Ask your administrator."),
  expired: msg('That sign-in took too long or was already used. Please try again.'),
  failed: msg('Sign-in with your organisation failed. Please try again, or ask your administrator.'),
};

/**
 * What the login page says when the gateway sends the browser back from a failed single sign-on
 * (`/login?sso_error=<code>`), in English; none without a code. A code this page does not know (a
 * newer gateway's) is still a failure, said in the general words.
 */
export function ssoFailureText(code: string | null): string | null {
  if (code === null) return null;
  return Object.hasOwn(SSO_FAILURES, code) ? SSO_FAILURES[code] : SSO_FAILURES.failed;
}
