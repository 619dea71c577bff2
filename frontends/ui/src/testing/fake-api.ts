// For component tests, which run without any server: `fetch` answers as the gateway would, from
// routes the test gives, and records what the screen sent.

export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
  /** What follows `?`, when there is anything. */
  query?: string;
}

export interface FakeAnswer {
  status?: number;
  body?: unknown;
  /** Besides its JSON content type, e.g. a list's `X-Next-Cursor`. */
  headers?: Record<string, string>;
}

export type FakeRoutes = Record<string, FakeAnswer | ((request: SentRequest) => FakeAnswer)>;

/**
 * Replaces `fetch` with one that answers `METHOD /path` (query left out) from `routes`, and 404
 * otherwise. Returns the requests sent, in order, and a function that puts the real `fetch` back.
 */
export function fakeApi(routes: FakeRoutes): { sent: SentRequest[]; restore(): void } {
  const original = globalThis.fetch;
  const sent: SentRequest[] = [];
  globalThis.fetch = (async (input: string, init: RequestInit = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const [path, query] = String(input).split('?', 2);
    const request: SentRequest = {
      method,
      path,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      ...(query ? { query } : {}),
    };
    sent.push(request);
    const route = routes[`${method} ${path}`];
    const answer = typeof route === 'function' ? route(request) : (route ?? { status: 404, body: { message: 'Not found' } });
    const status = answer.status ?? 200;
    const text = answer.body === undefined ? '' : JSON.stringify(answer.body);
    const headers = new Map(
      Object.entries({ 'content-type': 'application/json', ...answer.headers }).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const response = (): Response =>
      ({
        ok: status >= 200 && status < 300,
        status,
        statusText: String(status),
        headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
        text: async () => text,
        json: async () => JSON.parse(text),
        clone: response,
      }) as unknown as Response;
    return response();
  }) as typeof fetch;
  return {
    sent,
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

/** The requests that would change something (not reads). */
export const writes = (sent: readonly SentRequest[]) => sent.filter((r) => r.method !== 'GET');

/** jsdom has `<dialog>` without showModal/close: enough of both for a screen's dialogs to open and shut. */
export function supportDialogs(): void {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { showModal?: () => void };
  proto.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  if (!('close' in proto) || typeof proto.close !== 'function') {
    proto.close = function (this: HTMLDialogElement) {
      this.removeAttribute('open');
      this.dispatchEvent(new Event('close'));
    };
  }
}

/** Whether the page believes someone is signed in (the gateway's hint cookie), so it checks the session. */
export function signedInHint(): void {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
  document.cookie = 'lws_signed_in=1; Path=/';
}
