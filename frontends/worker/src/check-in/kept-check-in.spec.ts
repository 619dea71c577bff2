/** @jest-environment jsdom */
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '@lws/fe-ui';
import { KeptCheckIns, type KeptCheckIn } from './kept-check-in';

const CHECK_IN: KeptCheckIn = { userId: 7, location: 'Depot', pin: '4821', key: 'k-1', madeAt: '2026-11-27T14:03:00.000Z' };
const RETRY_MS = 10_000;

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

const offline = () => new TypeError('Failed to fetch');
const answer = (status: number, message: string) => new ApiError(status, 'x', JSON.stringify({ message }), { message });

describe('a check-in kept while offline', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('is tried again every 10 s with its first key and the time it was made, until LWS records it', async () => {
    const sent: KeptCheckIn[] = [];
    const replies: (() => unknown)[] = [
      () => Promise.reject(offline()),
      () => Promise.reject(answer(503, 'unavailable')),
      () => Promise.resolve({ id: 'c1' }),
    ];
    const storage = memoryStorage();
    const store = new KeptCheckIns({
      storage,
      retryMs: RETRY_MS,
      post: (k) => {
        sent.push(k);
        return replies.shift()!() as Promise<unknown>;
      },
    });
    store.keep(CHECK_IN);
    expect(store.snapshot().kept).toEqual(CHECK_IN);

    await jest.advanceTimersByTimeAsync(RETRY_MS);
    expect(store.snapshot().kept).toEqual(CHECK_IN);
    await jest.advanceTimersByTimeAsync(RETRY_MS);
    expect(store.snapshot().kept).toEqual(CHECK_IN);
    await jest.advanceTimersByTimeAsync(RETRY_MS);
    expect(store.snapshot()).toEqual({
      kept: null,
      sending: false,
      outcome: { kind: 'sent', madeAt: CHECK_IN.madeAt, body: { id: 'c1' } },
    });
    expect(sent.map((k) => [k.key, k.madeAt])).toEqual([
      ['k-1', CHECK_IN.madeAt],
      ['k-1', CHECK_IN.madeAt],
      ['k-1', CHECK_IN.madeAt],
    ]);
    // Nothing more is sent once it got through, and no mark is left.
    await jest.advanceTimersByTimeAsync(5 * RETRY_MS);
    expect(sent).toHaveLength(3);
    expect(storage.items.size).toBe(0);
  });

  it('is sent the moment the browser says the network is back', async () => {
    const post = jest.fn(() => Promise.resolve({ id: 'c2' }));
    const store = new KeptCheckIns({ storage: null, retryMs: RETRY_MS, post });
    store.keep(CHECK_IN);
    window.dispatchEvent(new Event('online'));
    await jest.advanceTimersByTimeAsync(0);
    expect(post).toHaveBeenCalledTimes(1);
    expect(store.snapshot().outcome?.kind).toBe('sent');
  });

  it('stops at LWS’s refusal and says why (a PIN typed wrong offline, kept too long)', async () => {
    const post = jest.fn(() => Promise.reject(answer(409, 'This check-in was made at 14:03 and the next one is already due.')));
    const store = new KeptCheckIns({ storage: null, retryMs: RETRY_MS, post });
    store.keep(CHECK_IN);
    await store.tryNow();
    expect(store.snapshot()).toEqual({
      kept: null,
      sending: false,
      outcome: { kind: 'refused', madeAt: CHECK_IN.madeAt, message: 'This check-in was made at 14:03 and the next one is already due.' },
    });
    await jest.advanceTimersByTimeAsync(3 * RETRY_MS);
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('never writes the PIN down; an app closed before sending says so when opened again, to that worker only', () => {
    const storage = memoryStorage();
    new KeptCheckIns({ storage, post: () => new Promise(() => undefined) }).keep(CHECK_IN);
    expect([...storage.items.values()].join()).not.toContain(CHECK_IN.pin);

    const someoneElse = new KeptCheckIns({ storage, post: jest.fn(() => Promise.resolve()) });
    someoneElse.restore(8);
    expect(someoneElse.snapshot().outcome).toBeNull();

    const reopened = new KeptCheckIns({ storage, post: jest.fn(() => Promise.resolve()) });
    reopened.restore(7);
    expect(reopened.snapshot().outcome).toEqual({ kind: 'lost', madeAt: CHECK_IN.madeAt });
    reopened.dismiss();
    expect(storage.items.size).toBe(0);
  });

  it('gives way to a newer check-in that got through', async () => {
    const post = jest.fn(() => Promise.reject(offline()));
    const storage = memoryStorage();
    const store = new KeptCheckIns({ storage, retryMs: RETRY_MS, post });
    store.keep(CHECK_IN);
    store.supersede();
    await jest.advanceTimersByTimeAsync(3 * RETRY_MS);
    expect(post).not.toHaveBeenCalled();
    expect(store.snapshot()).toEqual({ kept: null, sending: false, outcome: null });
    expect(storage.items.size).toBe(0);
  });
});
