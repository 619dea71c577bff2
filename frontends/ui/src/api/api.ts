import { takeEarlyRead } from './early-reads';
import { sendRequest, type RequestOptions } from './request';

export type { HttpMethod, RequestOptions } from './request';

/** A non-OK response. `message` is `{status}: {body text}` (the status text when the body is empty). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly bodyText: string,
    /** The parsed JSON body, or the raw text when it is not JSON. */
    readonly body: unknown,
  ) {
    super(`${status}: ${bodyText || statusText}`);
  }

  /** The server's own `message` field, when it sent one: fit to show a user. */
  get serverMessage(): string | undefined {
    return messageOf(this.body);
  }
}

export function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.trim()) return message;
    if (Array.isArray(message) && message.every((m) => typeof m === 'string')) return message.join(', ');
  }
  return undefined;
}

/**
 * Fired on `window` when any API call answers 401. The auth provider then
 * re-checks the session (a 401 from e.g. a wrong current password is not a
 * logout), so an expired session is noticed by the next call, not hours later.
 */
export const UNAUTHORIZED_EVENT = 'lws:unauthorized';

function isJson(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').toLowerCase().includes('json');
}

/**
 * The one way the browser talks to the API. Every request carries
 * `X-Requested-With: XMLHttpRequest` (the gateway refuses state-changing calls
 * without it, as CSRF defence), sends the session cookie and bypasses caches.
 * Resolves with the parsed JSON body, or `undefined` for an empty or non-JSON one.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await apiResponse<T>(path, options)).body;
}

/** As `apiRequest`, also giving the response headers (e.g. a list's `X-Next-Cursor`). */
export async function apiResponse<T = unknown>(path: string, options: RequestOptions = {}): Promise<{ body: T; headers: Headers }> {
  // A plain GET the shell already sent for this screen (early-reads.ts) is read instead of sent again.
  const early = !options.started && (options.method ?? 'GET') === 'GET' && !options.headers ? takeEarlyRead(path) : undefined;
  const response = await (options.started ?? early ?? sendRequest(path, options));
  const text = await response.text();

  if (!response.ok) {
    let parsed: unknown = text;
    let shown = text;
    if (text && isJson(response)) {
      try {
        parsed = JSON.parse(text);
        shown = JSON.stringify(parsed);
      } catch {
        // Keep the raw text: a broken error body must not hide the status.
      }
    }
    if (response.status === 401) window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { path } }));
    throw new ApiError(response.status, response.statusText, shown, parsed);
  }

  if (!text || !isJson(response)) return { body: undefined as T, headers: response.headers };
  try {
    return { body: JSON.parse(text) as T, headers: response.headers };
  } catch {
    throw new Error('Failed to parse API response as JSON');
  }
}

/** GET for a plain-text answer (e.g. a public key); a JSON string body is accepted too. Non-OK answers throw `ApiError`. */
export async function apiText(path: string, options: Omit<RequestOptions, 'method' | 'body'> = {}): Promise<string> {
  const response = await fetch(path, {
    method: 'GET',
    credentials: 'include',
    cache: 'no-store',
    signal: options.signal,
    headers: { Accept: 'text/plain, application/json', 'X-Requested-With': 'XMLHttpRequest', ...options.headers },
  });
  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401) window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { path } }));
    throw new ApiError(response.status, response.statusText, text, text);
  }
  if (isJson(response)) {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'string') return parsed;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { publicKey?: unknown }).publicKey === 'string') {
      return (parsed as { publicKey: string }).publicKey;
    }
    throw new Error('Invalid response from server');
  }
  return text.trim();
}

export const api = {
  get: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** What to tell the user about a failed call: the server's own message, else `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;
}

/** The form field a refused call names (`{ message, field }`), when it names one. */
export function failureField(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const body = error.body;
  if (body && typeof body === 'object' && 'field' in body) {
    const { field } = body as { field: unknown };
    if (typeof field === 'string' && field) return field;
  }
  return undefined;
}
