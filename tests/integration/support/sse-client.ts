import http from 'node:http';
import { XHR } from './test-stack';

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
  /** When the event was parsed (Date.now()). */
  at: number;
}

export interface SseStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The raw text received, for the framing assertions. */
  raw: string;
  events: SseEvent[];
  comments: string[];
  ended: boolean;
  /** JSON data of each event of a type. */
  of<T = Record<string, unknown>>(type: string): T[];
  /** Resolves with the first event (already received or to come) that matches. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  waitForEnd(timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Signs in with fetch and returns the session cookie, as a browser tab would hold it. */
export async function sessionCookie(url: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...XHR },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`login ${username}: ${res.status}`);
  return res.headers.get('set-cookie')!.split(';')[0];
}

/**
 * Opens GET /api/events as EventSource would and parses the stream as the HTML spec says (fields
 * `id`, `event`, `data`, comments starting with `:`, a blank line dispatching the event).
 */
export function openStream(url: string, opts: { cookie?: string; lastEventId?: string; query?: string } = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'text/event-stream' };
    if (opts.cookie) headers.Cookie = opts.cookie;
    if (opts.lastEventId) headers['Last-Event-ID'] = opts.lastEventId;
    const req = http.get(`${url}/api/events${opts.query ?? ''}`, { headers }, (res) => {
      const waiters = new Set<() => void>();
      const notify = () => {
        for (const w of waiters) w();
      };
      let buffer = '';
      let current: { id?: string; event?: string; data: string[] } = { data: [] };
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        raw: '',
        events: [],
        comments: [],
        ended: false,
        of: <T>(type: string) => stream.events.filter((e) => e.event === type).map((e) => JSON.parse(e.data) as T),
        waitFor: (match, timeoutMs = 5000) =>
          new Promise((done, fail) => {
            const check = () => {
              const found = stream.events.find(match);
              if (found) {
                finish();
                done(found);
              } else if (stream.ended) {
                finish();
                fail(new Error(`the stream ended before the event came; got ${JSON.stringify(stream.events.map((e) => e.event))}`));
              }
            };
            const timer = setTimeout(() => {
              finish();
              fail(new Error(`no matching event within ${timeoutMs} ms; got ${stream.raw.slice(-2000)}`));
            }, timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          }),
        waitForEnd: (timeoutMs = 5000) =>
          new Promise((done, fail) => {
            const check = () => {
              if (!stream.ended) return;
              finish();
              done();
            };
            const timer = setTimeout(() => {
              finish();
              fail(new Error(`the stream was still open after ${timeoutMs} ms`));
            }, timeoutMs);
            const finish = () => {
              clearTimeout(timer);
              waiters.delete(check);
            };
            waiters.add(check);
            check();
          }),
        close: () => req.destroy(),
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        stream.raw += chunk;
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).replace(/\r$/, '');
          buffer = buffer.slice(nl + 1);
          if (line === '') {
            if (current.data.length > 0 || current.event) {
              stream.events.push({ id: current.id, event: current.event ?? 'message', data: current.data.join('\n'), at: Date.now() });
            }
            current = { data: [] };
          } else if (line.startsWith(':')) {
            stream.comments.push(line.slice(1).trim());
          } else {
            const colon = line.indexOf(':');
            const field = colon < 0 ? line : line.slice(0, colon);
            const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
            if (field === 'id') current.id = value;
            else if (field === 'event') current.event = value;
            else if (field === 'data') current.data.push(value);
          }
        }
        notify();
      });
      const end = () => {
        stream.ended = true;
        notify();
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
      resolve(stream);
    });
    req.on('error', (err) => {
      if ((err as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(err);
    });
  });
}
