/**
 * Saves work that arrives close together in one go, as a consumer takes a batch of events: each
 * item waits at most `maxWaitMs` for others (or until `maxSize` wait), then `save` runs once for
 * the lot, in the order the items came. If the lot fails, each item is saved on its own, so one bad
 * item cannot lose the others'. add() resolves once its item is saved, or rejects with its own
 * failure. One save runs at a time: what arrives meanwhile waits for it, and goes in the next.
 */
export class Batcher<T> {
  private readonly waiting: { item: T; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private timer?: NodeJS.Timeout;
  private saving?: Promise<void>;

  constructor(
    private readonly options: {
      maxWaitMs: number;
      maxSize: number;
      save: (items: T[]) => Promise<void>;
      /** Told when a lot failed and its items are saved one at a time (a log line). */
      onSplit?: (err: unknown, size: number) => void;
    },
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.saving) return; // the save in progress takes what waits when it ends
      if (this.waiting.length >= this.options.maxSize) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
    });
  }

  /** Resolves once nothing waits and no save runs (shutdown). */
  async drained(): Promise<void> {
    while (this.saving || this.waiting.length > 0) {
      if (!this.saving) this.flush();
      await this.saving;
    }
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lot = this.waiting.splice(0, this.options.maxSize);
    if (lot.length === 0) return;
    this.saving = this.saveLot(lot).finally(() => {
      this.saving = undefined;
      // What came meanwhile has waited long enough.
      if (this.waiting.length > 0) this.flush();
    });
  }

  private async saveLot(lot: Batcher<T>['waiting']): Promise<void> {
    try {
      await this.options.save(lot.map((w) => w.item));
      for (const w of lot) w.resolve();
      return;
    } catch (err) {
      if (lot.length === 1) return lot[0].reject(err);
      this.options.onSplit?.(err, lot.length);
    }
    for (const w of lot) {
      try {
        await this.options.save([w.item]);
        w.resolve();
      } catch (err) {
        w.reject(err);
      }
    }
  }
}
