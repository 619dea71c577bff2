import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { LiveStream, type LiveState } from './live-stream';
import type { LiveEvent } from './live-events';

/** An event-stream answer that sends these chunks, then ends (as a gateway restart would) or stays open. */
function streamOf(chunks: string[], { end = true } = {}): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (end) controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const until = async (check: () => boolean, ms = 3000) => {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
};

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.restoreAllMocks();
});

describe('LiveStream: the live updates over GET /api/events, parsed by eventsource-parser', () => {
  it('reads events split across chunks, skips heartbeats, and resumes from the last id after the stream ends', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const requests: Headers[] = [];
    const answers = [
      streamOf([
        // retry: 1 so the reconnection comes at once (plus up to 1 s of spread).
        'retry: 1\nid: 7\nevent: ready\ndata: {}\n\n',
        ': ping\n\n',
        'id: 8\nevent: wor',
        'ker\ndata: {"userId":5,"change":"checked_in","at":"2026-11-27T10:00:00Z"}\r',
        '\n\r\n',
      ]),
      streamOf(['event: ready\ndata: {}\n\n'], { end: false }),
    ];
    globalThis.fetch = (async (_url: string, init: RequestInit) => {
      requests.push(new Headers(init.headers));
      return answers.shift() ?? new Promise<Response>(() => undefined);
    }) as typeof fetch;

    const events: LiveEvent[] = [];
    const states: LiveState[] = [];
    let resyncs = 0;
    const stream = new LiveStream({ onEvent: (e) => events.push(e), onState: (s) => states.push(s), onResync: () => (resyncs += 1) });
    stream.start();
    try {
      await until(() => requests.length === 2 && resyncs === 2);
      expect(events).toEqual([{ type: 'worker', data: { userId: 5, change: 'checked_in', at: '2026-11-27T10:00:00Z' } }]);
      expect(requests[0].get('Last-Event-ID')).toBeNull();
      // The id carried over, so the server can send what this page missed.
      expect(requests[1].get('Last-Event-ID')).toBe('8');
      expect(states).toEqual(['connecting', 'open', 'down', 'open']);
    } finally {
      stream.stop();
    }
  });
});
