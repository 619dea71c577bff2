import { randomBytes } from 'node:crypto';

/** One event as a tail sees it: no acknowledgement, no redelivery. */
export interface TailMessage {
  /** Subject without the deployment's subject prefix. */
  readonly subject: string;
  /** Decoded JSON body; `undefined` if the body was not JSON. */
  readonly data: unknown;
  /** Position in the bus's stream; strictly increasing within one epoch. */
  readonly sequence: number;
}

export interface TailOptions {
  /** Subjects without prefix; `*` and `>` wildcards follow NATS rules. */
  subjects: readonly string[];
  /** First stream sequence to deliver. Default: only events stored after the tail starts. */
  fromSequence?: number;
  /** Called in stream order, one message at a time; an exception is logged and the tail goes on. */
  handler: (message: TailMessage) => void;
}

export interface TailHandle {
  /**
   * Names the stream the sequences belong to. It changes when sequences start again from 1 (a new
   * in-process bus, a re-created JetStream stream), so a sequence from another epoch means nothing.
   */
  readonly epoch: string;
  /** Every matching event from this sequence on reaches the handler (earlier ones never do). */
  readonly startSequence: number;
  stop(): Promise<void>;
}

/**
 * A non-durable reader of the event stream for fan-out to short-lived clients (browsers): no
 * consumer state survives it, nothing is acknowledged, and it may be started and stopped freely.
 * Never use it for work that must happen once per event: that is what `consume` is for.
 */
export interface EventTailSource {
  tail(options: TailOptions): Promise<TailHandle>;
}

export function validateTailOptions(options: TailOptions): void {
  if (options.subjects.length === 0) throw new Error('A tail needs at least one subject');
  if (options.fromSequence !== undefined && !(Number.isSafeInteger(options.fromSequence) && options.fromSequence >= 1)) {
    throw new Error('fromSequence must be a positive integer');
  }
}

/** An epoch for a stream that lives as long as this process. */
export function processEpoch(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}
