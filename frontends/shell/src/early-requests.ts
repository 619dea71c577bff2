import { hasHint, SIGNED_IN_HINT } from '@lws/fe-ui/hints';
import { sendEarlyRead, workerFirstReads } from '@lws/fe-ui/early-reads';
import { sendRequest } from '@lws/fe-ui/request';
import { loginPage } from './login/login-module';
import { SSO_OFFER_PATH } from './login/sso';
import { remoteManifests } from './remotes/runtime-config';

/** Pages that are a remote's: the remotes' addresses are needed at once there. */
const REMOTE_PAGE = /^\/(?:worker|admin|superadmin|kiosk)(?:\/|$)/;
/** The worker's own page, whose first reads follow from who is signed in. */
const WORKER_PAGE = /^\/worker\/?$/;
/** Pages that show the login form to a signed-out visitor. */
const LOGIN_PAGE = /^\/(?:login|admin|superadmin)(?:\/|$)/;

let sessionCheck: Promise<Response> | undefined;

/**
 * Sends the first screen's requests as the page starts, while the app's code is still downloading,
 * rather than after its first render: the session check (when the hint cookie says there is a
 * session), on a remote's page /config.json, and the login page's code and its single sign-on
 * offer where a signed-out visitor will see it. On /worker, once the session check names a worker,
 * that worker's first reads too (early-reads.ts), while the worker screen's code is still
 * downloading. None reports a failure here: whoever reads the answer does, as before.
 */
export function startEarlyRequests(): void {
  const signedIn = hasHint(SIGNED_IN_HINT);
  if (signedIn) {
    sessionCheck = sendRequest('/api/auth/me');
    sessionCheck.catch(() => undefined);
    if (WORKER_PAGE.test(location.pathname)) void sendWorkerReads(sessionCheck);
  } else if (LOGIN_PAGE.test(location.pathname)) {
    loginPage.load().catch(() => undefined);
    // Whether to offer single sign-on, so the page shows its first screen (the button, or the
    // password form folded away) as its code arrives rather than a moment later.
    sendEarlyRead(SSO_OFFER_PATH);
  }
  // A failure is forgotten by remoteManifests itself, so the section asks again when it loads.
  if (REMOTE_PAGE.test(location.pathname)) remoteManifests().catch(() => undefined);
}

/**
 * The signed-in worker's first reads, as soon as the session check answers. Its body is read from
 * a copy: this runs before the app reads the answer itself (a promise's reactions run in the order
 * they were added).
 */
async function sendWorkerReads(check: Promise<Response>): Promise<void> {
  try {
    const response = await check;
    if (!response.ok) return;
    const me = (await response.clone().json()) as { id?: unknown; role?: unknown } | null;
    if (me?.role !== 'worker' || typeof me.id !== 'number' || !Number.isInteger(me.id) || me.id <= 0) return;
    for (const path of workerFirstReads(me.id)) sendEarlyRead(path);
  } catch {
    // No session, or none readable: the screen asks for what it needs itself.
  }
}

/** The session check sent early, for the app's first check to read; given out once. */
export function takeEarlySessionCheck(): Promise<Response> | undefined {
  const sent = sessionCheck;
  sessionCheck = undefined;
  return sent;
}
