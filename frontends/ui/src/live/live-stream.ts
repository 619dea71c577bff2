import { UNAUTHORIZED_EVENT } from '../api/api';
import { isLiveEventType, parseLiveEvent, type LiveEvent } from './live-events';
import { createParser } from 'eventsource-parser';

/**
 * idle: nobody is signed in; connecting: the first connection has not said `ready` yet;
 * open: events flow; down: the connection failed and a new one is on its way.
 */
export type LiveState = 'idle' | 'connecting' | 'open' | 'down';

export const EVENTS_PATH = '/api/events';
/** The wait before reconnecting when the server named none (it sends `retry: 3000`). */
export const DEFAULT_RETRY_MS = 3000;
/** Repeated failures wait longer each time, up to this. */
export const MAX_RETRY_MS = 30_000;
/**
 * The server sends a `: ping` every 15 s. A connection silent for this long is dead even if the
 * socket has not noticed (a sleeping laptop, a proxy that dropped it), and is replaced.
 */
export const SILENCE_LIMIT_MS = 45_000;

export interface LiveStreamHandlers {
  onState(state: LiveState): void;
  onEvent(event: LiveEvent): void;
  /** What the screens hold may be out of date: a (re)connection, a `reset`, or a change that could not be read. */
  onResync(): void;
}

/**
 * One connection to GET /api/events, kept open. It is read with fetch rather than EventSource so
 * that the heartbeats can be seen: EventSource hides comments, so a silently dead connection would
 * look open forever and the screens would stop updating without polling either. Like EventSource
 * it sends Last-Event-ID when it reconnects, and follows the server's `retry`.
 */
export class LiveStream {
  private lastEventId = '';
  private retryMs = DEFAULT_RETRY_MS;
  private failures = 0;
  private controller: AbortController | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private silenceTimer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private state: LiveState = 'connecting';

  constructor(
    private readonly handlers: LiveStreamHandlers,
    private readonly path = EVENTS_PATH,
  ) {}

  start(): void {
    this.handlers.onState(this.state);
    void this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.controller?.abort();
    this.clearTimers();
  }

  private setState(state: LiveState): void {
    if (this.state === state) return;
    this.state = state;
    this.handlers.onState(state);
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.reconnectTimer = null;
    this.silenceTimer = null;
  }

  private heard(controller: AbortController): void {
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => controller.abort(new Error('The event stream went silent')), SILENCE_LIMIT_MS);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const controller = new AbortController();
    this.controller = controller;
    const headers: Record<string, string> = { Accept: 'text/event-stream', 'X-Requested-With': 'XMLHttpRequest' };
    if (this.lastEventId) headers['Last-Event-ID'] = this.lastEventId;
    try {
      this.heard(controller);
      const response = await fetch(this.path, { credentials: 'include', cache: 'no-store', headers, signal: controller.signal });
      if (response.status === 401) window.dispatchEvent(new CustomEvent(UNAUTHORIZED_EVENT, { detail: { path: this.path } }));
      // The server no longer knows where this page left off (e.g. it was redeployed): start afresh,
      // the `ready` of the new connection refetches everything.
      if (response.status === 400) this.lastEventId = '';
      if (!response.ok) throw new Error(`The event stream answered ${response.status}`);
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream') || !response.body) {
        throw new Error('The event stream answered with something other than an event stream');
      }
      // The text/event-stream format by eventsource-parser. Comments (the server's `: ping`
      // heartbeats) reach us only as bytes that arrived; an id carries over to the next connection,
      // as the browser's EventSource does.
      const parser = createParser({
        onEvent: (message) => {
          if (message.id !== undefined && !message.id.includes('\0')) this.lastEventId = message.id;
          this.dispatch(message.event ?? 'message', message.data);
        },
        onRetry: (ms) => {
          this.retryMs = ms;
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        this.heard(controller);
        parser.feed(value);
      }
      throw new Error('The event stream ended');
    } catch (e) {
      if (this.stopped || controller !== this.controller) return;
      controller.abort();
      this.failed(e);
    }
  }

  private failed(error: unknown): void {
    this.clearTimers();
    this.failures += 1;
    this.setState('down');
    const backoff = Math.min(MAX_RETRY_MS, this.retryMs * 2 ** Math.min(this.failures - 1, 5));
    // Spread out the reconnections of every screen after a gateway restart.
    const delay = backoff + Math.floor(Math.random() * 1000);
    console.warn(`Live updates interrupted; reconnecting in ${Math.round(delay / 1000)} s`, error);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  private dispatch(type: string, data: string): void {
    if (this.stopped) return;
    if (type === 'ready') {
      this.failures = 0;
      this.setState('open');
      // Whatever happened before this connection (a first load, a gap) may not be on screen.
      this.handlers.onResync();
      return;
    }
    if (type === 'reset') {
      this.handlers.onResync();
      return;
    }
    if (!isLiveEventType(type)) return;
    const event = parseLiveEvent(type, data);
    if (event) this.handlers.onEvent(event);
    else {
      console.error(`Unreadable "${type}" event; refreshing everything`, data);
      this.handlers.onResync();
    }
  }
}
