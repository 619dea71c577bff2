import { Batcher } from './batcher';

// Work that arrives together is saved together (status callbacks, the sender's results), and one
// bad item never loses the others'.

describe('Batcher', () => {
  it('saves what arrives within its wait in one go, in the order it came, and one lot at a time', async () => {
    const lots: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batcher = new Batcher<number>({
      maxWaitMs: 5,
      maxSize: 3,
      save: async (items) => {
        lots.push(items);
        if (lots.length === 1) await gate;
      },
    });
    const first = [1, 2, 3].map((n) => batcher.add(n)); // full: saved at once
    const later = [4, 5, 6, 7].map((n) => batcher.add(n)); // wait for the first lot
    await new Promise((r) => setTimeout(r, 20));
    expect(lots).toEqual([[1, 2, 3]]);
    release();
    await Promise.all([...first, ...later]);
    expect(lots).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('saves each item alone when the lot fails, and rejects only the one that fails alone', async () => {
    const saved: number[][] = [];
    const splits: number[] = [];
    const batcher = new Batcher<number>({
      maxWaitMs: 1,
      maxSize: 10,
      save: async (items) => {
        if (items.includes(2)) throw new Error('two is bad');
        saved.push(items);
      },
      onSplit: (_err, size) => splits.push(size),
    });
    const outcomes = await Promise.allSettled([1, 2, 3].map((n) => batcher.add(n)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(saved).toEqual([[1], [3]]);
    expect(splits).toEqual([3]);
  });

  it('drains what waits before a shutdown goes on', async () => {
    const saved: number[] = [];
    const batcher = new Batcher<number>({ maxWaitMs: 60_000, maxSize: 100, save: async (items) => void saved.push(...items) });
    void batcher.add(1);
    void batcher.add(2);
    await batcher.drained();
    expect(saved).toEqual([1, 2]);
  });
});
