import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'drizzle-orm';
import type { AfterCommit, AnyEventEnvelope } from '@lws/messaging';
import { CLOCK, CONFIG, type BaseConfig, type Clock, type Tx } from '@lws/platform';
import type { NotificationsConfig } from '../config';
import { DELIVERY_PRIORITY, users } from '../db/schema';
import { enqueueMessages, type MessageToEnqueue } from './enqueue-messages';
import { feedMessagesOf, newMessageId, withTeam } from './event-catalogue';
import { WebhookSender } from './webhook-sender';

/** A webhook event type: dot-separated lower-case words ending in its version, e.g. `alarm.handoff.v1`. */
const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+\.v[1-9][0-9]*$/;

export interface DirectOptions {
  /** A duress alarm's message: refused (undefined) unless the endpoint is allowed duress. */
  duress?: boolean;
  /** Claim order (DELIVERY_PRIORITY); default: an alarm's. */
  priority?: number;
  /** When what it tells of happened (the payload's timestamp); default: now. */
  timestamp?: Date;
  /** The LWS event it answers, if any. */
  sourceEventId?: string;
  /** A hand-off's alarm: what waits for the endpoint is withdrawn once the alarm is resolved. */
  alarmId?: string;
  /** The unit of work's hook: the sender is woken once the message is committed. */
  afterCommit?: AfterCommit;
}

/**
 * Puts webhook messages on the queue the webhook sender works through: the LWS events the feed
 * consumes, fanned out to every endpoint that matches, and messages addressed to one endpoint.
 * Writes join the caller's transaction; the sender is woken after its commit.
 */
@Injectable()
export class WebhookQueue {
  private readonly firstDelayMs: number;

  constructor(
    private readonly sender: WebhookSender,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) config: NotificationsConfig & BaseConfig,
  ) {
    this.firstDelayMs = config.WEBHOOKS_RETRY_SCHEDULE[0] ?? 0;
  }

  /**
   * The webhook messages of a batch of LWS events, in two statements whatever the batch's size:
   * one read of the workers' teams the events do not name, one insert of every message and
   * delivery (enqueueMessages).
   */
  async enqueueEvents(tx: Tx, events: readonly AnyEventEnvelope[], afterCommit: AfterCommit): Promise<number> {
    const made = events.flatMap(feedMessagesOf);
    if (made.length === 0) return 0;
    const unknown = [...new Set(made.filter((m) => m.teamId === undefined).map((m) => m.userId))];
    const teams = new Map<number, number>();
    if (unknown.length > 0) {
      const { rows } = (await tx.execute(
        sql`select user_id, team_id from ${users} where user_id = any(${`{${unknown.join(',')}}`}::int[]) and team_id is not null`,
      )) as unknown as { rows: { user_id: number; team_id: number }[] };
      for (const r of rows) teams.set(Number(r.user_id), Number(r.team_id));
    }
    const messages: MessageToEnqueue[] = made.map((m) => {
      const full = withTeam(m, teams.get(m.userId));
      return {
        id: full.id,
        eventType: full.eventType,
        payload: full.payload,
        sourceEventId: full.sourceEventId,
        teamId: full.teamId ?? null,
        duress: full.duress,
        priority: full.priority,
      };
    });
    const now = this.clock();
    const enqueued = await enqueueMessages(tx, messages, now, new Date(now.getTime() + this.firstDelayMs));
    if (enqueued.length > 0) afterCommit(() => this.sender.kick());
    return enqueued.length;
  }

  /** Wakes the sender (deliveries were re-queued), once the caller's transaction has committed. */
  wakeSender(): void {
    this.sender.kick();
  }

  /**
   * A message to one endpoint, whatever event types and teams it has (an escalation step handing
   * an alarm to a named alarm receiving centre, a test ping): the message and its delivery are
   * written in `tx`, and sent once it commits. `type` is a versioned event type
   * (`alarm.handoff.v1`); `data` becomes the payload's data. Answers undefined, writing nothing,
   * when the endpoint does not exist, is disabled, or is not allowed a duress message.
   */
  async enqueueDirect(
    tx: Tx,
    endpointId: string,
    type: string,
    data: Record<string, unknown>,
    options: DirectOptions = {},
  ): Promise<{ messageId: string; deliveryId: string } | undefined> {
    if (!EVENT_TYPE.test(type)) throw new Error(`webhook event type "${type}" is not a versioned type such as alarm.handoff.v1`);
    const now = this.clock();
    const id = newMessageId();
    const [enqueued] = await enqueueMessages(
      tx,
      [
        {
          id,
          eventType: type,
          payload: { type, timestamp: (options.timestamp ?? now).toISOString(), data },
          sourceEventId: options.sourceEventId ?? null,
          alarmId: options.alarmId ?? null,
          teamId: null,
          duress: options.duress === true,
          priority: options.priority ?? DELIVERY_PRIORITY.alarm,
          endpointId,
        },
      ],
      now,
      now,
    );
    if (!enqueued) return undefined;
    options.afterCommit?.(() => this.sender.kick());
    return { messageId: enqueued.messageId, deliveryId: enqueued.deliveryId };
  }
}
