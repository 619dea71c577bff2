import { hasHint, SIGNED_IN_HINT } from '@lws/fe-ui/hints';
import { sendRequest } from '@lws/fe-ui/request';
import { loginPage } from './login/login-module';
import { remoteManifests } from './remotes/runtime-config';

/** Pages that are a remote's: the remotes' addresses are needed at once there. */
const REMOTE_PAGE = /^\/(?:worker|admin|superadmin|kiosk)(?:\/|$)/;
/** Pages that show the login form to a signed-out visitor. */
const LOGIN_PAGE = /^\/(?:login|admin|superadmin)(?:\/|$)/;

let sessionCheck: Promise<Response> | undefined;

/**
 * Sends the first screen's requests as the page starts, while the app's code is still downloading,
 * rather than after its first render: the session check (when the hint cookie says there is a
 * session), on a remote's page /config.json, and the login page's code where a signed-out visitor
 * will see it. None reports a failure here: whoever reads the answer does, as before.
 */
export function startEarlyRequests(): void {
  const signedIn = hasHint(SIGNED_IN_HINT);
  if (signedIn) {
    sessionCheck = sendRequest('/api/auth/me');
    sessionCheck.catch(() => undefined);
  } else if (LOGIN_PAGE.test(location.pathname)) {
    loginPage.load().catch(() => undefined);
  }
  // A failure is forgotten by remoteManifests itself, so the section asks again when it loads.
  if (REMOTE_PAGE.test(location.pathname)) remoteManifests().catch(() => undefined);
}

/** The session check sent early, for the app's first check to read; given out once. */
export function takeEarlySessionCheck(): Promise<Response> | undefined {
  const sent = sessionCheck;
  sessionCheck = undefined;
  return sent;
}
