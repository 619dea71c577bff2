import { ApiError, api, i18n } from '@lws/fe-ui';
import type { DevicePosition } from './device-position';

/** How often a kept check-in is tried again while it waits (and at once when the network returns). */
export const KEPT_RETRY_MS = 10_000;
const MARK_KEY = 'lws.keptCheckIn';

/** A check-in the worker made that has not reached LWS yet. */
export interface KeptCheckIn {
  userId: number;
  location: string;
  pin: string;
  position?: DevicePosition;
  /** The Idempotency-Key of the first try: every try is the same check-in. */
  key: string;
  /** When the worker made it, on the server's clock: it counts from then, never from when it arrived. */
  madeAt: string;
}

/** What became of the last kept check-in, for the screen to say. */
export type KeptOutcome =
  | { kind: 'sent'; madeAt: string; body: unknown }
  | { kind: 'refused'; madeAt: string; message: string }
  /** The app was closed before it could send one (the PIN is never stored, so it could not go on trying). */
  | { kind: 'lost'; madeAt: string };

export interface KeptState {
  kept: KeptCheckIn | null;
  sending: boolean;
  outcome: KeptOutcome | null;
}

/** Whether a failed check-in should be kept and tried again: no answer at all, or a gateway that could not reach LWS. */
export function worthKeeping(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 502 || error.status === 503 || error.status === 504;
  return true;
}

export interface KeptCheckInsOptions {
  post(kept: KeptCheckIn): Promise<unknown>;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  retryMs?: number;
}

/**
 * Holds a check-in made without a network until it gets through: tried again every 10 s and the
 * moment the browser says the network is back, with its first Idempotency-Key, so however many
 * tries arrive it is one check-in. It stops only when LWS answers: recorded, or refused (a wrong
 * PIN, kept so long the next check-in is already due). The PIN stays in memory: the store lives as
 * long as the app, across its pages. Only a mark without the PIN is written to storage, so an app
 * closed meanwhile says, when opened again, that a check-in did not get through.
 */
export class KeptCheckIns {
  private state: KeptState = { kept: null, sending: false, outcome: null };
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly onOnline = () => void this.tryNow();

  constructor(private readonly options: KeptCheckInsOptions) {}

  /** The outcome of a check-in an earlier visit kept and never sent, for this worker. */
  restore(userId: number): void {
    if (this.state.kept || this.state.outcome) return;
    const mark = this.readMark();
    if (!mark || mark.userId !== userId) return;
    this.set({ outcome: { kind: 'lost', madeAt: mark.madeAt } });
  }

  keep(kept: KeptCheckIn): void {
    this.writeMark({ userId: kept.userId, madeAt: kept.madeAt });
    this.set({ kept, outcome: null });
    if (this.timer === null) {
      this.timer = setInterval(() => void this.tryNow(), this.options.retryMs ?? KEPT_RETRY_MS);
      window.addEventListener('online', this.onOnline);
    }
  }

  /** One more try, unless one is under way. */
  async tryNow(): Promise<void> {
    const { kept, sending } = this.state;
    if (!kept || sending) return;
    this.set({ sending: true });
    try {
      const body = await this.options.post(kept);
      this.finish({ kind: 'sent', madeAt: kept.madeAt, body });
    } catch (e) {
      if (worthKeeping(e)) {
        this.set({ sending: false });
        return;
      }
      const message = e instanceof ApiError ? (e.serverMessage ?? i18n.t('LWS answered {{status}}', { status: e.status })) : String(e);
      this.finish({ kind: 'refused', madeAt: kept.madeAt, message });
    }
  }

  /** A newer check-in reached LWS: whatever was kept or lost is out of date. */
  supersede(): void {
    if (this.state.kept === null && this.state.outcome === null && !this.readMark()) return;
    this.stop();
    this.removeMark();
    this.set({ kept: null, sending: false, outcome: null });
  }

  dismiss(): void {
    if (this.state.outcome?.kind !== 'sent') this.removeMark();
    this.set({ outcome: null });
  }

  snapshot = (): KeptState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private finish(outcome: KeptOutcome): void {
    this.stop();
    this.removeMark();
    this.set({ kept: null, sending: false, outcome });
  }

  private stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    window.removeEventListener('online', this.onOnline);
  }

  private set(change: Partial<KeptState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  private readMark(): { userId: number; madeAt: string } | null {
    try {
      const raw = this.options.storage?.getItem(MARK_KEY);
      const mark = raw ? (JSON.parse(raw) as { userId?: unknown; madeAt?: unknown }) : null;
      return mark && typeof mark.userId === 'number' && typeof mark.madeAt === 'string'
        ? { userId: mark.userId, madeAt: mark.madeAt }
        : null;
    } catch {
      return null;
    }
  }

  private writeMark(mark: { userId: number; madeAt: string }): void {
    try {
      this.options.storage?.setItem(MARK_KEY, JSON.stringify(mark));
    } catch {
      // Private browsing: the check-in is still kept while the app is open.
    }
  }

  private removeMark(): void {
    try {
      this.options.storage?.removeItem(MARK_KEY);
    } catch {
      // As above.
    }
  }
}

function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The app's one store: a check-in kept on the worker screen is still sent while the worker is on their profile. */
export const keptCheckIns = new KeptCheckIns({
  storage: browserStorage(),
  post: (kept) =>
    api.post(
      '/api/check-ins',
      {
        userId: kept.userId,
        location: kept.location,
        pin: kept.pin,
        madeAt: kept.madeAt,
        ...(kept.position ? { position: kept.position } : {}),
      },
      { headers: { 'Idempotency-Key': kept.key } },
    ),
});
