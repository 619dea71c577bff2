import { BudgetClosedError, ProviderBudget } from './provider-budget';
import { ProviderRequestClient, retryAfterMs } from './provider-settings';

describe('ProviderBudget', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  /** Records the order in which sends were let go. */
  function recorder(budget: ProviderBudget) {
    const started: string[] = [];
    const send = (name: string, priority: number) => budget.take(priority).then(() => started.push(name));
    return { started, send };
  }

  it('lets a second of sends go at once, then one per 1/rate seconds', async () => {
    const budget = new ProviderBudget(2, () => Date.now());
    const { started, send } = recorder(budget);
    for (const name of ['a', 'b', 'c', 'd']) void send(name, 1);
    await jest.advanceTimersByTimeAsync(0);
    expect(started).toEqual(['a', 'b']);
    await jest.advanceTimersByTimeAsync(499);
    expect(started).toEqual(['a', 'b']);
    await jest.advanceTimersByTimeAsync(1);
    expect(started).toEqual(['a', 'b', 'c']);
    await jest.advanceTimersByTimeAsync(500);
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('gives the next token to an emergency before reminders that waited longer', async () => {
    const budget = new ProviderBudget(1, () => Date.now());
    const { started, send } = recorder(budget);
    void send('first', 2);
    void send('reminder 1', 2);
    void send('reminder 2', 2);
    await jest.advanceTimersByTimeAsync(100);
    void send('emergency', 0);
    void send('alarm', 1);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(started).toEqual(['first', 'emergency', 'alarm', 'reminder 1']);
  });

  it("holds all but an emergency's sends while a 429's pause lasts", async () => {
    const budget = new ProviderBudget(0, () => Date.now());
    const rooms: number[] = [];
    budget.onRoom = () => rooms.push(Date.now());
    const { started, send } = recorder(budget);
    expect(budget.pause(5_000)).toBe(true);
    expect(budget.pause(1_000)).toBe(false);
    expect(budget.room()).toBe(0);
    void send('reminder', 2);
    void send('emergency', 0);
    await jest.advanceTimersByTimeAsync(4_999);
    expect(started).toEqual(['emergency']);
    expect(budget.pauseRemainingMs).toBe(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(started).toEqual(['emergency', 'reminder']);
    expect(budget.pauseRemainingMs).toBe(0);
    expect(budget.room()).toBe(Number.POSITIVE_INFINITY);
    expect(rooms).toEqual([5_000]);
  });

  it('refuses the sends still waiting once closed', async () => {
    const budget = new ProviderBudget(1, () => Date.now());
    await budget.take(1);
    const waiting = budget.take(1);
    budget.close();
    await expect(waiting).rejects.toBeInstanceOf(BudgetClosedError);
    await expect(budget.take(0)).rejects.toBeInstanceOf(BudgetClosedError);
  });
});

describe('the Twilio client', () => {
  it('keeps a connection open for every delivery the sender keeps in flight', () => {
    const client = new ProviderRequestClient(100);
    const agent = client.axios.defaults.httpsAgent as { maxSockets: number; maxFreeSockets: number; keepAlive: boolean };
    expect({ maxSockets: agent.maxSockets, maxFreeSockets: agent.maxFreeSockets, keepAlive: agent.keepAlive }).toEqual({
      maxSockets: 100,
      maxFreeSockets: 100,
      keepAlive: true,
    });
    const fake = new ProviderRequestClient(100, 'http://127.0.0.1:1').axios.defaults.httpAgent as { maxSockets: number };
    expect(fake.maxSockets).toBe(100);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('5')).toBe(5_000);
    expect(retryAfterMs(['2'])).toBe(2_000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
