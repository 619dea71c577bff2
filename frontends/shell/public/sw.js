/* LWS service worker: shows check-in reminders pushed by the server, and opens the Check-In page. */

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let payload = {};
  if (event.data) {
    try {
      payload = event.data.json();
    } catch {
      payload = { body: event.data.text() };
    }
  }
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'Check-In Required';
  const body = typeof payload.body === 'string' ? payload.body : '';
  event.waitUntil(
    self.registration.showNotification(title, {
      body,
      tag: typeof payload.tag === 'string' ? payload.tag : 'lws-check-in',
      // A reminder that replaces an earlier one must still be noticed.
      renotify: true,
      requireInteraction: true,
      data: { url: '/worker' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const onWorker = windows.find((w) => new URL(w.url).pathname.startsWith('/worker'));
      if (onWorker) return onWorker.focus();
      return self.clients.openWindow('/worker');
    }),
  );
});
