import { api, apiText } from '@lws/fe-ui';

/** The service worker the shell serves at the site root, so its scope covers every page. */
export const SERVICE_WORKER_URL = '/sw.js';

/** Which step of turning notifications on failed; each has its own message (spec section 8). */
export type PushFailure = 'unsupported' | 'permission' | 'registration' | 'subscription' | 'setup';

export class PushSetupError extends Error {
  constructor(
    readonly step: PushFailure,
    cause?: unknown,
  ) {
    super(step, { cause });
  }
}

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** A VAPID public key (base64url) as the bytes PushManager wants. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = window.atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether this browser already holds a push subscription for the site. */
export async function existingSubscription(): Promise<boolean> {
  if (!pushSupported() || Notification.permission !== 'granted') return false;
  try {
    const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
    return Boolean(await registration?.pushManager.getSubscription());
  } catch {
    return false;
  }
}

/**
 * Permission, then the service worker, then the push subscription with the server's VAPID key,
 * then the server stores it (spec section 4, "Notification switch"). Throws a PushSetupError naming
 * the step that failed.
 */
export async function enablePushNotifications(): Promise<void> {
  if (!pushSupported()) throw new PushSetupError('unsupported');

  const permission = await Notification.requestPermission().catch((e: unknown) => {
    throw new PushSetupError('permission', e);
  });
  if (permission !== 'granted') throw new PushSetupError('permission');

  let registration: ServiceWorkerRegistration;
  try {
    await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' });
    registration = await navigator.serviceWorker.ready;
  } catch (e) {
    throw new PushSetupError('registration', e);
  }

  let publicKey: string;
  try {
    publicKey = await apiText('/api/push/public-key');
    if (!publicKey) throw new Error('The server sent no public key');
  } catch (e) {
    throw new PushSetupError('setup', e);
  }

  let subscription: PushSubscription;
  try {
    subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  } catch (e) {
    throw new PushSetupError('subscription', e);
  }

  const json = subscription.toJSON();
  try {
    await api.post('/api/push/subscribe', { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh, auth: json.keys?.auth } });
  } catch (e) {
    throw new PushSetupError('setup', e);
  }
}
