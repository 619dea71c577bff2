// How the app sends a request to the gateway, apart from how it reads the answer (api.ts). A module
// of its own, holding no state, so that the shell can send the first screen's GETs with it before
// the shared modules have loaded (frontends/shell/src/early-requests.ts).

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as it is, with its own content type (a file upload), instead of `body`. */
  file?: { content: Blob | string; contentType: string };
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * This very request, already sent: its answer is read as any other (the shell sends the first
   * screen's GETs while the app's code is still downloading).
   */
  started?: Promise<Response>;
}

/** Sends a request the way every API call does: the session cookie, never the HTTP cache, JSON. */
export function sendRequest(path: string, options: RequestOptions = {}): Promise<Response> {
  const { method = 'GET', body, file, headers, signal } = options;
  return fetch(path, {
    method,
    credentials: 'include',
    cache: 'no-store',
    signal,
    headers: {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...(file ? { 'Content-Type': file.contentType } : body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: file ? file.content : body === undefined ? undefined : JSON.stringify(body),
  });
}
