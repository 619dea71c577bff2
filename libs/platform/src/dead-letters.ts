import { Controller, type Type } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { and, asc, count, eq, isNotNull, isNull } from 'drizzle-orm';
import type { CommandMap } from '@lws/contracts';
import { Command, RpcError, type MessagingTables, type OutboxRelay } from '@lws/messaging';
import type { Db } from './database';
import type { Consumers } from './runtime';

type View = CommandMap['identity.deadletter.list.v1']['reply']['letters'][number];
type ResolveRequest = CommandMap['identity.deadletter.replay.v1']['request'];

const OUTBOX = 'outbox';

/**
 * A service's dead letters: events its consumers parked (dead_letters) and its own events the bus
 * refused for good (parked outbox rows). A superadmin sees them, replays them through the normal
 * path once the cause is mended, or discards them.
 */
export class DeadLetters {
  constructor(
    private readonly db: Db,
    private readonly tables: MessagingTables,
    private readonly consumers: Consumers,
    private readonly relay: OutboxRelay,
  ) {}

  async list(limit: number): Promise<{ letters: View[]; total: number }> {
    const { deadLetters: d, outbox: o } = this.tables;
    const parked = and(isNotNull(o.parkedAt), isNull(o.publishedAt));
    const [letters, rows, [openLetters], [parkedRows]] = await Promise.all([
      this.db.select().from(d).where(isNull(d.resolvedAt)).orderBy(asc(d.firstSeenAt)).limit(limit),
      this.db.select().from(o).where(parked).orderBy(asc(o.parkedAt)).limit(limit),
      this.db.select({ n: count() }).from(d).where(isNull(d.resolvedAt)),
      this.db.select({ n: count() }).from(o).where(parked),
    ]);
    const views = [...letters.map(letterView), ...rows.map(outboxView)].sort((a, b) => a.firstSeenAt.localeCompare(b.firstSeenAt));
    return { letters: views.slice(0, limit), total: Number(openLetters.n) + Number(parkedRows.n) };
  }

  async replay(req: ResolveRequest): Promise<CommandMap['identity.deadletter.replay.v1']['reply']> {
    const found = await this.find(req.id);
    if (found.kind === OUTBOX) {
      const o = this.tables.outbox;
      // Back to the relay, in its place by seq: if the bus refuses it again it is parked again.
      await this.db.update(o).set({ parkedAt: null, attempts: 0 }).where(eq(o.id, req.id));
      this.relay.kick();
      return { letter: found, replayed: true };
    }
    const consumer = this.consumers.byName(found.consumer);
    if (!consumer) throw new RpcError(409, `Consumer ${found.consumer} does not run in this service any more; discard the letter instead`);
    const outcome = await consumer.replay(req.id, req.byUserId);
    const [row] = await this.db.select().from(this.tables.deadLetters).where(eq(this.tables.deadLetters.id, req.id));
    const letter = row ? letterView(row) : found;
    return outcome.replayed ? { letter, replayed: true } : { letter, replayed: false, error: outcome.error };
  }

  async discard(req: ResolveRequest): Promise<CommandMap['identity.deadletter.discard.v1']['reply']> {
    const found = await this.find(req.id);
    if (found.kind === OUTBOX) {
      await this.db.delete(this.tables.outbox).where(and(eq(this.tables.outbox.id, req.id), isNull(this.tables.outbox.publishedAt)));
      return { letter: found };
    }
    const d = this.tables.deadLetters;
    await this.db
      .update(d)
      .set({ resolvedAt: new Date(), resolution: 'discarded', resolvedBy: req.byUserId })
      .where(and(eq(d.id, req.id), isNull(d.resolvedAt)));
    return { letter: found };
  }

  private async find(id: string): Promise<View> {
    const { deadLetters: d, outbox: o } = this.tables;
    const [letter] = await this.db
      .select()
      .from(d)
      .where(and(eq(d.id, id), isNull(d.resolvedAt)));
    if (letter) return letterView(letter);
    const [row] = await this.db
      .select()
      .from(o)
      .where(and(eq(o.id, id), isNotNull(o.parkedAt), isNull(o.publishedAt)));
    if (row) return outboxView(row);
    throw new RpcError(404, 'No open dead letter has this id', { field: 'id' });
  }
}

type LetterRow = MessagingTables['deadLetters']['$inferSelect'];
type OutboxRow = MessagingTables['outbox']['$inferSelect'];

function letterView(r: LetterRow): View {
  return {
    id: r.id,
    kind: 'consumer',
    consumer: r.consumer,
    subject: r.subject,
    ...(r.eventId ? { eventId: r.eventId } : {}),
    error: r.error,
    attempts: r.attempts,
    firstSeenAt: r.firstSeenAt.toISOString(),
  };
}

function outboxView(r: OutboxRow): View {
  return {
    id: r.id,
    kind: 'outbox',
    consumer: OUTBOX,
    subject: r.subject,
    eventId: r.id,
    error: r.lastError ?? '',
    attempts: r.attempts,
    firstSeenAt: (r.parkedAt ?? r.createdAt).toISOString(),
  };
}

/** The service's dead-letter commands: `<service>.deadletter.list|replay|discard.v1`. */
export function deadLettersController(service: string, deadLetters: DeadLetters): Type<unknown> {
  @Controller()
  class DeadLettersController {
    @Command(`${service}.deadletter.list.v1` as 'identity.deadletter.list.v1')
    list(@Payload() req: CommandMap['identity.deadletter.list.v1']['request']) {
      return deadLetters.list(req.limit);
    }

    @Command(`${service}.deadletter.replay.v1` as 'identity.deadletter.replay.v1')
    replay(@Payload() req: ResolveRequest) {
      return deadLetters.replay(req);
    }

    @Command(`${service}.deadletter.discard.v1` as 'identity.deadletter.discard.v1')
    discard(@Payload() req: ResolveRequest) {
      return deadLetters.discard(req);
    }
  }
  return DeadLettersController;
}
