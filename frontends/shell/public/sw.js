/*
 * LWS service worker: the worker app installs to the home screen and opens without a
 * network; pushed reminders and alarms are shown, and a tap opens the screen they are about.
 *
 * - App files are kept in the `shell` cache: the shell's build (its precache.json), the worker
 *   remote (its mf-manifest.json) and the manifest and icons, fetched at install; anything else
 *   the app loads is added as it goes. Files whose names carry a content hash never change, so
 *   they come from the cache first; the rest (pages, config.json, manifests) from the network
 *   first, the cache only when there is none.
 * - The worker's own data (who they are, their shift, their emergency, the locations) is kept in
 *   the `data` cache, only for the worker screen, and only to show it when there is no network.
 *   Such an answer carries `X-LWS-Offline: 1`. Signing in or out empties it, so nobody sees the
 *   last user's screen; an answer of 401 does too.
 * - A new version of the app replaces the old one's files: once it is active, each hashed file
 *   in the `shell` cache that the new build does not list is deleted, so the cache holds one
 *   build, not every build the phone has ever seen.
 * - Nothing that changes anything is cached or replayed here: a check-in made offline is kept by
 *   the worker screen itself, which sends it with its original idempotency key when it can.
 */

const VERSION = 'v1';
const SHELL = `lws-shell-${VERSION}`;
const DATA = `lws-data-${VERSION}`;
const APP_PAGE = '/index.html';
const HASHED = /\.[0-9a-f]{8}\.(?:js|css)$/;
/** What the worker screen reads to show itself (never the time: a stale clock would be worse than none). */
const WORKER_DATA = [
  /^\/api\/auth\/me$/,
  /^\/api\/users\/\d+\/with-relations$/,
  /^\/api\/users\/\d+\/emergency$/,
  /^\/api\/location-options$/,
  /^\/api\/settings$/,
];
const MONITOR_PAGES = /^\/(?:admin|superadmin)$/;
/** Where install keeps the list of the build's files, for activate to trim the cache by. */
const FILE_LIST = '/__lws-app-files.json';
/** Calls after which the kept data may belong to someone else. */
const SESSION_CHANGES = /^\/api\/auth\/(?:login|logout|pin-login)$/;

async function appFiles() {
  const files = new Set([APP_PAGE, '/config.json', '/manifest.webmanifest', '/icons/icon-192.png', '/icons/icon-512.png']);
  try {
    const shell = await fetch('/precache.json', { cache: 'no-store' });
    if (shell.ok) for (const name of await shell.json()) files.add(`/${name}`);
    const config = await (await fetch('/config.json', { cache: 'no-store' })).json();
    const manifestUrl = new URL(config.remotes.worker, self.location.origin);
    if (manifestUrl.origin === self.location.origin) {
      files.add(manifestUrl.pathname);
      const base = manifestUrl.pathname.slice(0, manifestUrl.pathname.lastIndexOf('/') + 1);
      const manifest = await (await fetch(manifestUrl, { cache: 'no-store' })).json();
      files.add(`${base}${manifest.metaData.remoteEntry.path}${manifest.metaData.remoteEntry.name}`);
      for (const part of [...manifest.shared, ...manifest.exposes]) {
        for (const kind of ['js', 'css'])
          for (const name of [...part.assets[kind].sync, ...part.assets[kind].async]) files.add(`${base}${name}`);
      }
    }
  } catch (err) {
    // Installed with what could be listed; the rest is kept as the app loads it.
    console.warn('LWS offline files: not all could be listed', err);
  }
  return [...files];
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      const files = await appFiles();
      // One file that fails must not stop the worker app from installing.
      await Promise.allSettled(files.map((url) => cache.add(new Request(url, { cache: 'no-store' }))));
      await cache.put(FILE_LIST, new Response(JSON.stringify(files), { headers: { 'Content-Type': 'application/json' } }));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name.startsWith('lws-') && name !== SHELL && name !== DATA) await caches.delete(name);
      await trimOldBuilds();
      await self.clients.claim();
    })(),
  );
});

/**
 * Deletes the hashed files of earlier builds: those the installed build does not list. Kept when
 * the list is missing (an install that could not list its files): better a full cache than an
 * app that cannot open offline.
 */
async function trimOldBuilds() {
  const cache = await caches.open(SHELL);
  const list = await cache.match(FILE_LIST);
  if (!list) return;
  const current = new Set(await list.json());
  for (const request of await cache.keys()) {
    const path = new URL(request.url).pathname;
    if (HASHED.test(path) && !current.has(path)) await cache.delete(request);
  }
}

async function fromNetworkFirst(request, cacheName, cacheKey = request) {
  const cache = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(cacheKey, response.clone());
    return response;
  } catch (err) {
    const kept = await cache.match(cacheKey);
    if (kept) return kept;
    throw err;
  }
}

async function fromCacheFirst(request) {
  const cache = await caches.open(SHELL);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function workerData(request) {
  const cache = await caches.open(DATA);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    else if (response.status === 401) await caches.delete(DATA);
    return response;
  } catch (err) {
    const kept = await cache.match(request);
    if (!kept) throw err;
    const headers = new Headers(kept.headers);
    headers.set('X-LWS-Offline', '1');
    return new Response(await kept.blob(), { status: kept.status, statusText: kept.statusText, headers });
  }
}

/** Whether the worker screen asked (the gateway's Referrer-Policy is same-origin, so the page is named). */
function fromWorkerScreen(request) {
  try {
    return new URL(request.referrer).pathname.startsWith('/worker');
  } catch {
    return false;
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== 'GET') {
    if (SESSION_CHANGES.test(url.pathname)) event.waitUntil(caches.delete(DATA));
    return;
  }
  if (url.pathname.startsWith('/api/')) {
    // Any other page's calls are left to the browser, untouched.
    if (WORKER_DATA.some((path) => path.test(url.pathname)) && fromWorkerScreen(request)) event.respondWith(workerData(request));
    return;
  }
  if (request.mode === 'navigate') {
    event.respondWith(fromNetworkFirst(request, SHELL, APP_PAGE));
    return;
  }
  if (url.pathname === '/sw.js' || url.pathname === '/healthz' || url.pathname === '/readyz') return;
  // Only the worker app opens offline: the monitors' and the kiosk's screens load as they always did.
  if (url.pathname.startsWith('/remotes/') && !url.pathname.startsWith('/remotes/worker/')) return;
  event.respondWith(HASHED.test(url.pathname) ? fromCacheFirst(request) : fromNetworkFirst(request, SHELL));
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
      tag: typeof payload.tag === 'string' ? payload.tag : payload.alarmId ? `lws-alarm-${payload.alarmId}` : 'lws-check-in',
      // A reminder that replaces an earlier one must still be noticed.
      renotify: true,
      requireInteraction: true,
      icon: '/icons/icon-192.png',
      data: { url: openUrl(payload.url) },
    }),
  );
});

/** Where a tap leads: the screen the server named (a path of this site), else the worker's. */
function openUrl(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/worker';
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = openUrl(event.notification.data?.url);
  const path = new URL(target, self.location.origin).pathname;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      // "/" is a monitor's dashboard, whichever it is.
      const there = windows.find((w) => (path === '/' ? MONITOR_PAGES : new RegExp(`^${path}$`)).test(new URL(w.url).pathname));
      if (there) return there.focus();
      const any = windows.find((w) => typeof w.navigate === 'function');
      if (any) {
        try {
          return await (await any.focus()).navigate(target);
        } catch {
          // A window this worker does not control cannot be sent elsewhere: open one.
        }
      }
      return self.clients.openWindow(target);
    }),
  );
});
