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
