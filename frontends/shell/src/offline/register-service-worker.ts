import { SERVICE_WORKER_URL } from '../profile/push-subscription';

/**
 * Installs the service worker on every visit: the worker app can then be added to the
 * home screen and opens without a network. Push notifications use the same registration.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch((err: unknown) => {
      // The app works online without it; only installing and opening offline are lost.
      console.error('The offline worker app could not be set up', err);
    });
  };
  // After the page has loaded, so installing (which fetches the app's files) never delays it.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
