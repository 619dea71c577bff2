/** A send the budget let go of without starting it: the sender stopped. The row was not sent. */
export class BudgetClosedError extends Error {
  constructor() {
    super('The sender stopped before the provider budget let this message go');
  }
}

interface Waiter {
  priority: number;
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * How fast the sender may start provider requests (SMS, WhatsApp, calls): a token bucket of
 * `perSecond` (0: unlimited) holding at most one second's worth, and a pause a 429 imposes on
 * everything but emergencies. Sends waiting for it go in priority order, then first come, so when
 * the budget is short an emergency's message takes the next token and reminders wait. Time is the
 * machine's, not the application clock: the provider counts real seconds.
 */
export class ProviderBudget {
  private tokens: number;
  private refilledAt: number;
  private pausedUntil = 0;
  private readonly queue: Waiter[] = [];
  private seq = 0;
  private timer?: NodeJS.Timeout;
  private closed = false;
  /** Called when waiting sends were let go or a pause ended: the sender may claim more. */
  onRoom?: () => void;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = this.capacity;
    this.refilledAt = now();
  }

  /** Tokens the bucket holds when full: a second's worth, at least one. */
  get capacity(): number {
    return Math.max(1, this.perSecond);
  }

  /** Whether a per-second limit is set. */
  get limited(): boolean {
    return this.perSecond > 0;
  }

  /** Sends waiting for a token or for a pause to end. */
  get waiting(): number {
    return this.queue.length;
  }

  /** How long a 429's pause still holds non-urgent sends, in milliseconds (0 when none does). */
  get pauseRemainingMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  /** Whether a 429's pause holds new sends of this priority (never an emergency's, priority 0). */
  paused(priority: number): boolean {
    return priority > 0 && this.now() < this.pausedUntil;
  }

  /**
   * Non-urgent provider sends worth claiming now: none while paused; with a limit, as many as
   * bring those waiting to about a second's worth. The rest stay in the database, in priority
   * order, where a later emergency is claimed ahead of them.
   */
  room(): number {
    if (this.paused(1)) return 0;
    if (!this.limited) return Number.POSITIVE_INFINITY;
    return Math.max(0, Math.ceil(this.capacity) - this.queue.length);
  }

  /** Resolves when a send of this priority may start; rejects with BudgetClosedError once closed. */
  take(priority: number): Promise<void> {
    if (this.closed) return Promise.reject(new BudgetClosedError());
    const ahead = this.queue.length > 0 && this.queue[0].priority <= priority;
    if (!ahead && this.tryTake(priority)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = { priority, seq: this.seq++, resolve, reject };
      const at = this.queue.findIndex((w) => w.priority > priority);
      this.queue.splice(at === -1 ? this.queue.length : at, 0, waiter);
      this.reschedule();
    });
  }

  /** The provider answered 429: no new non-urgent send for `ms`. True when no pause was on. */
  pause(ms: number): boolean {
    const now = this.now();
    const fresh = now >= this.pausedUntil;
    if (now + ms <= this.pausedUntil) return false;
    this.pausedUntil = now + ms;
    this.reschedule();
    return fresh;
  }

  /** Refuses every waiting send (BudgetClosedError) and any later one. */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.queue.splice(0)) w.reject(new BudgetClosedError());
  }

  private tryTake(priority: number): boolean {
    if (this.paused(priority)) return false;
    if (!this.limited) return true;
    const now = this.now();
    this.tokens = this.tokensAt(now);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private tokensAt(now: number): number {
    return Math.min(this.capacity, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
  }

  private readonly release = (): void => {
    this.timer = undefined;
    while (this.queue.length > 0 && this.tryTake(this.queue[0].priority)) this.queue.shift()!.resolve();
    this.reschedule();
    this.onRoom?.();
  };

  /** Wakes when the first waiter can go, or when a pause ends (the sender claims again then). */
  private reschedule(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.closed) return;
    const now = this.now();
    let at: number | undefined;
    const head = this.queue[0];
    if (head && this.paused(head.priority)) at = this.pausedUntil;
    else if (head) at = this.limited ? now + Math.max(0, ((1 - this.tokensAt(now)) / this.perSecond) * 1000) : now;
    else if (this.pausedUntil > now) at = this.pausedUntil;
    if (at === undefined) return;
    this.timer = setTimeout(this.release, Math.max(0, Math.ceil(at - now)));
    this.timer.unref();
  }
}
