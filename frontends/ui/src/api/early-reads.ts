import { sendRequest } from './request';

/**
 * GETs sent before the screen that reads them has loaded, for that screen to read instead of
 * asking again. The shell sends the worker screen's first reads as soon as the session check says
 * a worker is signed in, while the worker screen's code is still downloading: on a phone's slow
 * network the screen then waits for its code or its data, whichever comes last, not for one after
 * the other.
 *
 * The reads are kept on the window, not in this module: the shell's entry bundles its own copy of
 * this module (it runs before the shared modules have loaded), and the screens read through the
 * shared `api`'s copy.
 */
const REGISTRY = Symbol.for('lws.early-reads');

/** An early answer older than this is not used: the screen asks afresh. */
export const EARLY_READ_FRESH_MS = 10_000;

type Sent = { at: number; response: Promise<Response> };

function registry(): Map<string, Sent> {
  const holder = globalThis as { [REGISTRY]?: Map<string, Sent> };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/** Sends a GET now, for the screen that will read it. A failure is reported by whoever reads it. */
export function sendEarlyRead(path: string): void {
  const response = sendRequest(path);
  response.catch(() => undefined);
  registry().set(path, { at: Date.now(), response });
}

/** The early GET of `path`, given out once, while it is fresh. */
export function takeEarlyRead(path: string): Promise<Response> | undefined {
  const sent = registry().get(path);
  if (!sent) return undefined;
  registry().delete(path);
  return Date.now() - sent.at <= EARLY_READ_FRESH_MS ? sent.response : undefined;
}

/** What the worker's screen reads as it opens: its hooks ask for these, and the shell sends them early. */
export const WORKER_READS = {
  shift: (userId: number) => `/api/users/${userId}/with-relations`,
  emergency: (userId: number) => `/api/users/${userId}/emergency`,
  locations: () => '/api/location-options',
} as const;

export const workerFirstReads = (userId: number): string[] => Object.values(WORKER_READS).map((path) => path(userId));
