/** How long the gate stays shut after urgent work hands on: the next hop (a publish reaching its consumer) picks it up within this. */
export const URGENCY_LINGER_MS = 250;
/** The longest bulk work waits at the gate for one batch: it is slowed while emergencies run, never stopped. */
export const URGENCY_MAX_HOLD_MS = 500;
/**
 * The longest one piece of urgent work keeps the gate shut (a hop takes well under a second): one
 * that hangs, such as a send to a provider that is down and retried, does not hold the flood back
 * for as long as it lasts.
 */
export const URGENCY_MAX_SHUT_MS = 2_000;

/**
 * Urgent work under way in this process (an emergency on its way from the button to the provider),
 * and the gate the bulk loops pass before each batch of theirs (the relay's other lane, the
 * consumers of what is not urgent). Node runs every service of a process on one thread, in the
 * order work arrives: in a flood each await of an emergency's fifty or so waits behind the
 * flood's callbacks. While an emergency is under way the flood's loops start no new batch (for at
 * most URGENCY_MAX_HOLD_MS each time), so the thread drains what is in flight and the emergency's
 * hops run next. A queue's priority (the outbox's lanes, the sender's claim order) decides which
 * row goes first; this decides whose callbacks the thread runs.
 */
export class Urgency {
  private running = 0;
  /** performance.now() until which a recent hand-on keeps the gate shut. */
  private until = 0;
  private readonly waiting = new Set<() => void>();
  private timer?: NodeJS.Timeout;
  /** Time bulk batches spent at the gate, in ms, summed (a metric samples it). */
  heldMs = 0;

  constructor(
    private readonly lingerMs = URGENCY_LINGER_MS,
    private readonly maxHoldMs = URGENCY_MAX_HOLD_MS,
    private readonly maxShutMs = URGENCY_MAX_SHUT_MS,
  ) {}

  /**
   * Urgent work begins; the function answered ends it (once, however often it is called). After
   * the longest shut it counts as ended, whether or not it has.
   */
  begin(): () => void {
    this.running++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(cap);
      this.running--;
      this.handedOn();
    };
    const cap = setTimeout(end, this.maxShutMs);
    cap.unref?.();
    return end;
  }

  /** Runs urgent work, the gate shut meanwhile. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    const end = this.begin();
    try {
      return await work();
    } finally {
      end();
    }
  }

  /** Urgent work was just handed on (published, say): the gate stays shut a moment for its next hop. */
  handedOn(): void {
    this.until = Math.max(this.until, performance.now() + this.lingerMs);
    this.openWhenClear();
  }

  /** Whether urgent work is under way or was just handed on. */
  get shut(): boolean {
    return this.running > 0 || performance.now() < this.until;
  }

  /** Bulk work: resolves at once while nothing urgent runs, else when it has ended, or after the longest hold. */
  async pass(): Promise<void> {
    if (!this.shut) return;
    const since = performance.now();
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(hold);
        this.waiting.delete(done);
        resolve();
      };
      const hold = setTimeout(done, this.maxHoldMs);
      hold.unref?.();
      this.waiting.add(done);
      this.openWhenClear();
    });
    this.heldMs += performance.now() - since;
  }

  /** Lets the waiting pass once nothing urgent runs and the linger is over. */
  private openWhenClear(): void {
    if (this.waiting.size === 0 || this.running > 0) return;
    const left = this.until - performance.now();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (left > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.openWhenClear();
      }, left);
      this.timer.unref?.();
      return;
    }
    for (const done of [...this.waiting]) done();
  }
}

/** This process's urgency: every service a process runs shares its one thread, so they share this. */
export const urgency = new Urgency();
