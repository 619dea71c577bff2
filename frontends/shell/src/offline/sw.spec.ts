/// <reference types="node" />
import { describe, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';

// The service worker (public/sw.js) run as a browser runs it, in a scope of its own,
// with the browser's parts it uses (caches, clients, the registration, the network) played here.

const ORIGIN = 'https://lws.example';
const SOURCE = readFileSync(join(__dirname, '..', '..', 'public', 'sw.js'), 'utf8');

type Handler = (event: FakeEvent) => void;

/** What the service worker reads of a request: the page that made it is its referrer. */
interface FakeRequest {
  url: string;
  method: string;
  mode: string;
  referrer: string;
}

const ask = (path: string, from: string, method = 'GET'): FakeRequest => ({
  url: `${ORIGIN}${path}`,
  method,
  mode: 'cors',
  referrer: `${ORIGIN}${from}`,
});

interface FakeEvent {
  request?: FakeRequest;
  data?: { json(): unknown; text(): string };
  notification?: { data: unknown; close(): void };
  response?: Promise<Response>;
  waits: Promise<unknown>[];
  respondWith(p: Promise<Response>): void;
  waitUntil(p: Promise<unknown>): void;
}

function event(fields: Partial<FakeEvent>): FakeEvent {
  return {
    waits: [],
    respondWith(p) {
      this.response = p;
    },
    waitUntil(p) {
      this.waits.push(p);
    },
    ...fields,
  };
}

class FakeCaches {
  readonly stores = new Map<string, Map<string, Response>>();

  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    const key = (r: FakeRequest | string) => (typeof r === 'string' ? new URL(r, ORIGIN).href : r.url);
    return {
      match: async (r: FakeRequest | string) => store.get(key(r))?.clone(),
      put: async (r: FakeRequest | string, res: Response) => void store.set(key(r), res),
      add: async (r: FakeRequest | string) => void store.set(key(r), new Response(`file ${key(r)}`)),
      keys: async () => [...store.keys()].map((url) => ({ url })),
      delete: async (r: FakeRequest | string) => store.delete(key(r)),
    };
  }

  async delete(name: string) {
    return this.stores.delete(name);
  }

  async keys() {
    return [...this.stores.keys()];
  }
}

interface Window {
  url: string;
  focus: jest.Mock<() => Promise<Window>>;
  navigate: jest.Mock<(url: string) => Promise<Window>>;
}

function windowAt(path: string): Window {
  const w: Window = { url: `${ORIGIN}${path}`, focus: jest.fn(async () => w), navigate: jest.fn(async () => w) };
  return w;
}

function serviceWorker({
  windows = [] as Window[],
  network = (_r: FakeRequest): Promise<Response> => Promise.reject(new TypeError('Failed to fetch')),
} = {}) {
  const handlers: Record<string, Handler> = {};
  const caches = new FakeCaches();
  const showNotification = jest.fn(async (_title: string, _options: { data: { url: string }; tag: string }) => undefined);
  const openWindow = jest.fn(async (_url: string) => null);
  const fetch = jest.fn(network);
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, fn: Handler) => {
      handlers[type] = fn;
    },
    registration: { showNotification },
    skipWaiting: async () => undefined,
    clients: {
      claim: async () => undefined,
      matchAll: async () => windows,
      openWindow,
    },
  };
  // The browser resolves a path against the worker's origin; Node's Request wants it whole.
  const PageRequest = class extends Request {
    constructor(input: string, init?: RequestInit) {
      super(new URL(input, ORIGIN), init);
    }
  };
  vm.runInNewContext(SOURCE, { self, caches, fetch, URL, Request: PageRequest, Response, Headers, RegExp, Promise, console });
  return { handlers, caches, showNotification, openWindow, fetch };
}

const push = (payload: unknown) => event({ data: { json: () => payload, text: () => JSON.stringify(payload) } });

describe('the service worker: notifications open the screen they are about', () => {
  it('shows a push with where a tap leads: the path the server named, else the worker screen; never another site', async () => {
    const sw = serviceWorker();
    for (const [url, expected] of [
      ['/', '/'],
      ['/worker', '/worker'],
      [undefined, '/worker'],
      ['https://evil.example/', '/worker'],
      ['//evil.example/x', '/worker'],
    ] as const) {
      const e = push({ title: 'Missed check-in', body: 'Sam missed a check-in', alarmId: 'a1', url });
      sw.handlers.push(e);
      await Promise.all(e.waits);
      expect(sw.showNotification.mock.calls.at(-1)?.[1]).toMatchObject({ data: { url: expected }, tag: 'lws-alarm-a1' });
    }
  });

  it("a monitor's tap focuses their open dashboard; a worker's opens their screen, in a window already open or a new one", async () => {
    const dashboard = windowAt('/admin');
    const monitor = serviceWorker({ windows: [windowAt('/profile'), dashboard] });
    const tap = (url: string) => event({ notification: { data: { url }, close: () => undefined } });
    let e = tap('/');
    monitor.handlers.notificationclick(e);
    await Promise.all(e.waits);
    expect(dashboard.focus).toHaveBeenCalled();
    expect(monitor.openWindow).not.toHaveBeenCalled();

    const profile = windowAt('/profile');
    const worker = serviceWorker({ windows: [profile] });
    e = tap('/worker');
    worker.handlers.notificationclick(e);
    await Promise.all(e.waits);
    expect(profile.navigate).toHaveBeenCalledWith('/worker');

    const closed = serviceWorker();
    e = tap('/worker');
    closed.handlers.notificationclick(e);
    await Promise.all(e.waits);
    expect(closed.openWindow).toHaveBeenCalledWith('/worker');
  });
});

describe("the service worker: the worker's screen without a network", () => {
  const me = (from = '/worker') => ask('/api/auth/me', from);

  it("keeps the worker screen's last answers and gives them back offline, marked so; signing out forgets them", async () => {
    let online = true;
    const sw = serviceWorker({
      network: async () => {
        if (!online) throw new TypeError('Failed to fetch');
        return new Response(JSON.stringify({ id: 7, role: 'worker' }), { headers: { 'content-type': 'application/json' } });
      },
    });
    let e = event({ request: me() });
    sw.handlers.fetch(e);
    expect((await e.response!).headers.get('X-LWS-Offline')).toBeNull();

    online = false;
    e = event({ request: me() });
    sw.handlers.fetch(e);
    const kept = await e.response!;
    expect(kept.headers.get('X-LWS-Offline')).toBe('1');
    expect(await kept.json()).toEqual({ id: 7, role: 'worker' });

    e = event({ request: ask('/api/auth/logout', '/worker', 'POST') });
    sw.handlers.fetch(e);
    expect(e.response).toBeUndefined();
    await Promise.all(e.waits);
    e = event({ request: me() });
    sw.handlers.fetch(e);
    await expect(e.response!).rejects.toThrow('Failed to fetch');
  });

  it("leaves a monitor's page alone, and never keeps the time or anything that changes state", () => {
    const sw = serviceWorker({ network: async () => new Response('{}') });
    for (const request of [
      me('/admin'),
      me('/superadmin'),
      ask('/api/time', '/worker'),
      ask('/api/check-ins', '/worker', 'POST'),
      ask('/api/events', '/worker'),
    ]) {
      const e = event({ request });
      sw.handlers.fetch(e);
      expect(e.response).toBeUndefined();
    }
    expect(sw.fetch).not.toHaveBeenCalled();
  });
});

describe('the service worker: one build in the cache', () => {
  it("a new build's activation deletes the hashed files of the builds before it, and keeps the rest", async () => {
    const build = ['index.html', 'main.1a2b3c4d.js', 'main.5e6f7a8b.css'];
    const sw = serviceWorker({
      // The worker asks for its lists by path.
      network: async (r) => {
        const url = typeof r === 'string' ? r : r.url;
        return url.endsWith('/precache.json')
          ? Response.json(build)
          : url.endsWith('/config.json')
            ? Response.json({ remotes: { worker: 'https://cdn.example/worker/mf-manifest.json' } })
            : new Response('ok');
      },
    });
    const shell = await sw.caches.open('lws-shell-v1');
    for (const old of ['/main.00000000.js', '/main.99999999.css', '/remotes/admin/admin.12345678.js'])
      await shell.put(old, new Response('old build'));
    await shell.put('/config.json', new Response('{}'));

    const install = event({});
    sw.handlers.install(install);
    await Promise.all(install.waits);
    // Until the new build is active, the open pages may still ask for the old files.
    expect(await shell.match('/main.00000000.js')).toBeDefined();
    const activate = event({});
    sw.handlers.activate(activate);
    await Promise.all(activate.waits);

    const kept = (await shell.keys()).map((r) => new URL(r.url).pathname).filter((p) => !p.startsWith('/__'));
    expect(kept.sort()).toEqual([
      '/config.json',
      '/icons/icon-192.png',
      '/icons/icon-512.png',
      '/index.html',
      '/main.1a2b3c4d.js',
      '/main.5e6f7a8b.css',
      '/manifest.webmanifest',
    ]);
  });
});
