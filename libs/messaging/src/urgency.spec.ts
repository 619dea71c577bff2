import { Urgency } from './urgency';

describe('Urgency: bulk work waits while an emergency is under way in the process', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Whether the promise has settled once pending timers up to now have run. */
  async function settled(p: Promise<unknown>): Promise<boolean> {
    let done = false;
    void p.then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    return done;
  }

  it('lets bulk work through at once while nothing urgent runs', async () => {
    const u = new Urgency(250, 500);
    expect(u.shut).toBe(false);
    expect(await settled(u.pass())).toBe(true);
    expect(u.heldMs).toBe(0);
  });

  it('holds bulk work while urgent work runs, and a moment after it hands on, then lets it through', async () => {
    const u = new Urgency(250, 5_000, 60_000);
    const end = u.begin();
    const waiting = u.pass();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await settled(waiting)).toBe(false);
    end();
    // The next hop (a publish reaching its consumer) has the linger to begin.
    await jest.advanceTimersByTimeAsync(200);
    expect(await settled(waiting)).toBe(false);
    await jest.advanceTimersByTimeAsync(60);
    expect(await settled(waiting)).toBe(true);
    expect(u.heldMs).toBeGreaterThanOrEqual(1_250);
    // Ending twice counts once: the gate is open again.
    end();
    expect(u.shut).toBe(false);
  });

  it('never holds bulk work longer than its longest hold, however long urgent work runs', async () => {
    const u = new Urgency(250, 500, 60_000);
    const end = u.begin();
    const first = u.pass();
    await jest.advanceTimersByTimeAsync(499);
    expect(await settled(first)).toBe(false);
    await jest.advanceTimersByTimeAsync(2);
    expect(await settled(first)).toBe(true);
    // The next batch waits again, at most as long.
    const second = u.pass();
    await jest.advanceTimersByTimeAsync(501);
    expect(await settled(second)).toBe(true);
    end();
  });

  it('during() shuts the gate for the work it runs, and opens it whether the work succeeds or throws', async () => {
    const u = new Urgency(0, 5_000, 60_000);
    let finish!: () => void;
    const work = u.during(() => new Promise<void>((resolve) => (finish = resolve)));
    expect(u.shut).toBe(true);
    finish();
    await work;
    expect(u.shut).toBe(false);
    await expect(u.during(() => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect(u.shut).toBe(false);
  });

  it('urgent work that hangs keeps the gate shut for at most its longest shut', async () => {
    const u = new Urgency(250, 60_000, 2_000);
    u.begin();
    const waiting = u.pass();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(u.shut).toBe(true);
    expect(await settled(waiting)).toBe(false);
    // Counted as ended at 2 s, then the linger for its next hop.
    await jest.advanceTimersByTimeAsync(251);
    expect(u.shut).toBe(false);
    expect(await settled(waiting)).toBe(true);
  });

  it('two urgent works: the gate opens when the last has ended', async () => {
    const u = new Urgency(0, 5_000, 60_000);
    const a = u.begin();
    const b = u.begin();
    const waiting = u.pass();
    a();
    await jest.advanceTimersByTimeAsync(10);
    expect(await settled(waiting)).toBe(false);
    b();
    await jest.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });
});
