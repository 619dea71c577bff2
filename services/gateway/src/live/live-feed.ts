import { ContractError } from '@lws/contracts';
import { parseEnvelope, type EventTailSource, type TailHandle, type TailMessage } from '@lws/messaging';
import type { Clock, Logger } from '@lws/platform';
import type { Role } from '../common/session.guard';
import { LIVE_SUBJECTS, liveDeliveries, scopeChange, type LiveDelivery } from './live-events';

export interface LiveFeedOptions {
  source: EventTailSource;
  logger: Logger;
  clock: Clock;
  maxEvents: number;
  maxAgeMs: number;
}

/** Which workers an admin of some teams sees: those teams'. */
export interface TeamScope {
  teamIds: Set<number>;
  userIds: Set<number>;
}

/**
 * An admin's scope as an open stream holds it: looked up when the stream opens, kept current by
 * the workers the feed hears join a team, and looked up again when a team changes. A worker heard
 * while a lookup is in flight is applied to its answer too, so a slow lookup cannot undo it.
 */
export class LiveScope {
  private current: TeamScope | undefined;
  private inflight = false;
  private again = false;
  private heard: { userId: number; teamId: number }[] = [];

  constructor(
    private readonly load: () => Promise<TeamScope | undefined>,
    private readonly logger: Logger,
  ) {}

  async init(): Promise<this> {
    this.current = await this.load();
    return this;
  }

  /** Absent: every worker. */
  get(): TeamScope | undefined {
    return this.current;
  }

  member(userId: number, teamId: number): void {
    if (this.inflight) this.heard.push({ userId, teamId });
    if (this.current) joinOrLeave(this.current, userId, teamId);
  }

  refresh(): void {
    if (this.inflight) {
      this.again = true;
      return;
    }
    this.inflight = true;
    this.heard = [];
    this.load()
      .then(
        (next) => {
          if (next) for (const h of this.heard) joinOrLeave(next, h.userId, h.teamId);
          this.current = next;
        },
        (err: unknown) =>
          this.logger.warn({ err }, "live stream could not look up an admin's teams; keeping the last known until the next change"),
      )
      .finally(() => {
        this.inflight = false;
        this.heard = [];
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }
}

function joinOrLeave(scope: TeamScope, userId: number, teamId: number): void {
  if (scope.teamIds.has(teamId)) scope.userIds.add(userId);
  else scope.userIds.delete(userId);
}

/** One open stream as the feed sees it. */
export interface LiveSubscriber {
  readonly userId: number;
  readonly role: Role;
  /** An admin's teams; absent for the superadmin and workers. */
  readonly scope?: LiveScope;
  /** Writes a ready-made frame to the client. */
  send(frame: string): void;
  /** Ends the stream (shutdown). */
  close(): void;
}

interface Buffered {
  sequence: number;
  storedAt: number;
  /** The frame monitors get, if any, and the user and team it is about (which admins see it). */
  monitors?: { frame: string; about?: number; aboutTeam?: number };
  /** The frame the worker it is about gets, if any. */
  worker?: { userId: number; frame: string };
}

interface Attached {
  subscriber: LiveSubscriber;
  /** Events at or before this sequence were already sent (a cursor from a replica further ahead). */
  after: number;
}

const CURSOR = /^([a-z0-9]{1,40})-(\d{1,15})$/;

const isMonitor = (role: Role) => role === 'admin' || role === 'superadmin';

/**
 * The superadmin sees every monitors' frame; an admin of some teams those about their teams'
 * workers or themselves, and those about an alarm of one of their teams (an alarm stays the team's
 * it opened in when its worker moves on).
 */
function sees(subscriber: LiveSubscriber, on: { about?: number; aboutTeam?: number }): boolean {
  const scope = subscriber.scope?.get();
  if (!scope) return true;
  if (on.aboutTeam !== undefined) return scope.teamIds.has(on.aboutTeam);
  return on.about !== undefined && (on.about === subscriber.userId || scope.userIds.has(on.about));
}

export function frame(type: string, data: unknown, id?: string): string {
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The gateway's one reader of the event bus for browsers: a single tail per process turns bus
 * events into stream frames once, keeps the recent ones for clients that reconnect with
 * Last-Event-ID, and hands each to the open streams allowed to see it. A stream costs a set entry,
 * never a bus consumer.
 */
export class LiveFeed {
  private tail?: TailHandle;
  private epoch = '';
  /** Ring buffer, oldest first from `first`. */
  private buffer: Buffered[] = [];
  private first = 0;
  /** Every visible event with a sequence above this one is in the buffer. */
  private coveredAfter = 0;
  /** The last sequence the tail delivered. */
  private head = 0;
  private readonly monitors = new Set<Attached>();
  private readonly workers = new Map<number, Set<Attached>>();

  constructor(private readonly options: LiveFeedOptions) {}

  async start(): Promise<void> {
    this.tail = await this.options.source.tail({ subjects: LIVE_SUBJECTS, handler: (m) => this.receive(m) });
    this.epoch = this.tail.epoch;
    this.coveredAfter = this.tail.startSequence - 1;
    this.head = this.coveredAfter;
  }

  /** Stops reading the bus and ends every open stream. */
  async stop(): Promise<void> {
    await this.tail?.stop();
    this.tail = undefined;
    const all = [...this.monitors, ...[...this.workers.values()].flatMap((s) => [...s])];
    this.monitors.clear();
    this.workers.clear();
    for (const a of all) a.subscriber.close();
  }

  /** The cursor of the newest event seen; a client resuming from it misses nothing after it. */
  headCursor(): string {
    return `${this.epoch}-${this.head}`;
  }

  /** True when `value` has the shape of a cursor this feed hands out (it may still be unknown). */
  static isCursor(value: string): boolean {
    return CURSOR.test(value);
  }

  /**
   * Registers a stream and returns what it is sent first: a fresh connect gets `ready`; a resume
   * gets every event it may see after its cursor, or `reset` when that cursor is from another
   * epoch or older than the buffer, so the client refetches everything. Both carry an id so a
   * later reconnect resumes from here.
   */
  attach(subscriber: LiveSubscriber, lastEventId?: string): { initial: string; detach: () => void } {
    const attached: Attached = { subscriber, after: this.head };
    let initial: string;
    const parsed = lastEventId === undefined ? undefined : CURSOR.exec(lastEventId);
    if (lastEventId === undefined) {
      initial = frame('ready', { now: this.options.clock().toISOString() }, this.headCursor());
    } else if (!parsed || parsed[1] !== this.epoch || Number(parsed[2]) < this.coveredAfter) {
      initial = frame('reset', {}, this.headCursor());
    } else {
      attached.after = Number(parsed[2]);
      initial = this.buffered(attached).join('');
    }
    this.index(attached, true);
    return { initial, detach: () => this.index(attached, false) };
  }

  /** Open streams, for tests and metrics. */
  get size(): number {
    let n = this.monitors.size;
    for (const s of this.workers.values()) n += s.size;
    return n;
  }

  private index(a: Attached, add: boolean): void {
    if (isMonitor(a.subscriber.role)) {
      if (add) this.monitors.add(a);
      else this.monitors.delete(a);
      return;
    }
    const id = a.subscriber.userId;
    let set = this.workers.get(id);
    if (add) {
      if (!set) {
        set = new Set();
        this.workers.set(id, set);
      }
      set.add(a);
    } else if (set) {
      set.delete(a);
      if (set.size === 0) this.workers.delete(id);
    }
  }

  private buffered(a: Attached): string[] {
    const out: string[] = [];
    const monitor = isMonitor(a.subscriber.role);
    for (let i = this.first; i < this.buffer.length; i++) {
      const e = this.buffer[i];
      if (e.sequence <= a.after) continue;
      const f = monitor
        ? e.monitors && sees(a.subscriber, e.monitors)
          ? e.monitors.frame
          : undefined
        : e.worker?.userId === a.subscriber.userId
          ? e.worker.frame
          : undefined;
      if (f) out.push(f);
    }
    return out;
  }

  private receive(message: TailMessage): void {
    if (message.sequence <= this.head) return;
    this.head = message.sequence;
    let deliveries: LiveDelivery[];
    try {
      const envelope = parseEnvelope(message.subject, message.data);
      this.rescope(envelope);
      deliveries = liveDeliveries(envelope);
    } catch (err) {
      if (!(err instanceof ContractError)) throw err;
      this.options.logger.warn(
        { subject: message.subject, sequence: message.sequence, err: err.message },
        'live feed skipped an event that breaks its contract',
      );
      return;
    }
    if (deliveries.length === 0) return;
    const id = `${this.epoch}-${message.sequence}`;
    const entry: Buffered = { sequence: message.sequence, storedAt: Date.now() };
    for (const d of deliveries) {
      const f = frame(d.type, d.data, id);
      if (d.to === 'monitors') {
        entry.monitors = {
          frame: f,
          ...(d.about !== undefined ? { about: d.about } : {}),
          ...(d.aboutTeam !== undefined ? { aboutTeam: d.aboutTeam } : {}),
        };
      } else entry.worker = { userId: d.to.userId, frame: f };
    }
    this.store(entry);
    const monitors = entry.monitors;
    if (monitors) for (const a of this.monitors) if (sees(a.subscriber, monitors)) this.deliver(a, entry.sequence, monitors.frame);
    if (entry.worker) {
      const set = this.workers.get(entry.worker.userId);
      if (set) for (const a of set) this.deliver(a, entry.sequence, entry.worker.frame);
    }
  }

  /** Keeps the admins' scopes current with the workers and teams identity changes. */
  private rescope(envelope: Parameters<typeof scopeChange>[0]): void {
    const change = scopeChange(envelope);
    if (!change) return;
    for (const a of this.monitors) {
      const scope = a.subscriber.scope;
      if (!scope) continue;
      if (change.kind === 'member') scope.member(change.userId, change.teamId);
      else scope.refresh();
    }
  }

  private deliver(a: Attached, sequence: number, f: string): void {
    if (sequence <= a.after) return;
    try {
      a.subscriber.send(f);
    } catch (err) {
      this.options.logger.warn({ err }, 'live stream write failed');
      a.subscriber.close();
    }
  }

  private store(entry: Buffered): void {
    this.buffer.push(entry);
    const oldest = entry.storedAt - this.options.maxAgeMs;
    while (
      this.first < this.buffer.length &&
      (this.buffer.length - this.first > this.options.maxEvents || this.buffer[this.first].storedAt < oldest)
    ) {
      this.coveredAfter = this.buffer[this.first].sequence;
      this.first++;
    }
    // Compacts now and then instead of shifting the array on every event.
    if (this.first > 1024 && this.first * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.first);
      this.first = 0;
    }
  }
}
