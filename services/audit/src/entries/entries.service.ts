import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap, EventMap } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { CLOCK, UnitOfWork, type Clock, type Emit, type Tx } from '@lws/platform';
import { decodeCursor, encodeCursor, type Position } from './cursor';
import { describeEvent, directoryActor, type DescribedEvent, type EntryDraft, type MessageStage } from './describe';
import { EntriesRepository, type ListedEntry, type NewEntry } from './entries.repository';
import { displayUsername, fallbackUsername, labelOf } from './entry-types';

type List = CommandMap['audit.entry.list.v1'];
type RecordCmd = CommandMap['audit.entry.record.v1'];
type EntryView = RecordCmd['reply']['entry'];

/** Thrown to roll back and retry an event whose message stage another transaction took first. */
class StageTakenError extends Error {}

/** The users an event names: its subject and whoever acted on it (the look-ups describeEvent makes). */
function usersNamed(event: DescribedEvent): number[] {
  const d = event.data as {
    userId?: unknown;
    byUserId?: unknown;
    startedBy?: unknown;
    endedBy?: unknown;
    changedBy?: unknown;
    monitorsChanged?: { added: number[]; removed: number[] };
  };
  return [
    d.userId,
    d.byUserId,
    d.startedBy,
    d.endedBy,
    d.changedBy,
    ...(d.monitorsChanged?.added ?? []),
    ...(d.monitorsChanged?.removed ?? []),
  ].filter((id): id is number => typeof id === 'number');
}

function recordedEvent(row: ListedEntry): EventMap['audit.entry.recorded.v1'] {
  return {
    entryId: row.id,
    ...(row.userId !== null ? { userId: row.userId } : {}),
    type: row.type,
    details: row.details,
    at: row.at.toISOString(),
    username: displayUsername(row.userId, row.username),
    ...(row.location !== null ? { location: row.location } : {}),
    label: labelOf(row.type),
  };
}

export function entryView(row: ListedEntry): EntryView {
  return {
    id: row.id,
    ...(row.userId !== null ? { userId: row.userId } : {}),
    username: displayUsername(row.userId, row.username),
    type: row.type,
    label: labelOf(row.type),
    at: row.at.toISOString(),
    details: row.details,
    ...(row.location !== null ? { location: row.location } : {}),
  };
}

@Injectable()
export class EntriesService {
  constructor(
    private readonly repo: EntriesRepository,
    @Inject(UnitOfWork) private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The entry a domain event stands for, written with the event's dedupe record. */
  recordEvent(tx: Tx, emit: Emit, event: DescribedEvent): Promise<void> {
    return this.recordEvents(tx, emit, [event]);
  }

  /**
   * The entries of many events (a consumer's batch), in order, in a few statements whatever their
   * number: the users they name are locked and read at once, the message stages already logged are
   * read at once, and the entries, their stages and their announcements are written at once. What
   * `append` does for one: nothing about a deleted user, nothing twice for one event or one stage.
   */
  async recordEvents(tx: Tx, emit: Emit, events: readonly DescribedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const userIds = [...new Set(events.flatMap(usersNamed))];
    await this.repo.lockUsersForWrite(tx, userIds);
    const users = new Map((await this.repo.findUsers(tx, userIds)).map((u) => [u.userId, u]));
    const messageIds = [...new Set(events.flatMap((e) => (e.subject === 'notifications.message.sent.v1' ? [e.data.messageId] : [])))];
    const logged = await this.repo.loggedStagesOf(tx, messageIds);
    const rows: NewEntry[] = [];
    const marks: { messageId: string; stage: MessageStage }[] = [];
    for (const event of events) {
      const draft = await describeEvent(event, {
        // Every user an event names was read above; the look-up is only a safety net.
        usernameOf: async (userId) =>
          (users.has(userId) ? users.get(userId)!.username : (await this.repo.findUser(tx, userId))?.username) ?? undefined,
        loggedStages: async (messageId) => logged.get(messageId) ?? new Set(),
      });
      if (!draft) continue;
      const user = draft.userId !== null ? users.get(draft.userId) : undefined;
      if (user?.deletedAt) continue;
      if (draft.marks) {
        const stages = logged.get(draft.marks.messageId) ?? new Set<MessageStage>();
        for (const stage of draft.marks.stages) stages.add(stage);
        logged.set(draft.marks.messageId, stages);
        marks.push(...draft.marks.stages.map((stage) => ({ messageId: draft.marks!.messageId, stage })));
      }
      rows.push({
        userId: draft.userId,
        username: draft.userId !== null ? (user?.username ?? draft.username ?? null) : null,
        type: draft.type,
        details: draft.details,
        location: draft.location ?? null,
        at: draft.at,
        sourceEventId: event.id,
        monitorsOnly: draft.monitorsOnly === true,
      });
    }
    if (!(await this.repo.markLoggedMany(tx, marks))) {
      throw new StageTakenError('a concurrent update of a message in this batch was logged first; retrying');
    }
    const saved = await this.repo.insertMany(tx, rows);
    await emit.many(saved.map((row) => ({ subject: 'audit.entry.recorded.v1' as const, data: recordedEvent(row) })));
  }

  /** An entry a client asked for (the gateway checked who may write it). */
  async recordFromClient(req: RecordCmd['request']): Promise<RecordCmd['reply']> {
    const row = await this.uow.run((tx, emit) =>
      this.append(tx, emit, {
        userId: req.userId,
        username: req.username,
        type: req.type,
        details: req.details,
        location: req.location,
        at: this.clock(),
      }),
    );
    if (!row) throw new RpcError(404, 'User not found', { field: 'userId', code: 'user_not_found' });
    return { entry: entryView(row) };
  }

  async list(req: List['request']): Promise<List['reply']> {
    let after: Position | undefined;
    if (req.cursor !== undefined) {
      after = decodeCursor(req.cursor);
      if (!after) throw new RpcError(400, 'Invalid cursor', { field: 'cursor' });
    }
    if (req.scope?.userIds.length === 0) return { entries: [] };
    const rows = await this.repo.page(req.limit + 1, req.userId, after, req.scope?.userIds, req.workerView === true);
    const shown = rows.slice(0, req.limit);
    const last = shown[shown.length - 1];
    return {
      entries: shown.map(entryView),
      ...(rows.length > req.limit && last ? { nextCursor: encodeCursor({ at: last.at, id: last.id }) } : {}),
    };
  }

  /**
   * Spec section 3: a user's entries are deleted with the user. The purge is the activity log's
   * only delete; the deletion itself stays on record as an entry of the monitor who deleted them.
   */
  async userDeleted(tx: Tx, emit: Emit, e: EventMap['identity.user.deleted.v1'], eventId: string, at: Date): Promise<void> {
    await this.repo.lockUserForPurge(tx, e.userId);
    const before = await this.repo.findUser(tx, e.userId);
    await this.repo.markDeleted(tx, e.userId, before?.deletedAt ?? at);
    await this.repo.purgeUser(tx, e.userId);
    const who = before?.username ? `${before.name ? `${before.name} ` : ''}(${before.username})` : fallbackUsername(e.userId);
    // Deleted by the organisation's directory: the entry names it, on its token creator's record.
    const details = e.directory
      ? `${directoryActor(e.directory)} deleted the account of ${who}; their activity entries were removed`
      : `Deleted the account of ${who}; their activity entries were removed`;
    await this.append(tx, emit, { userId: e.deletedBy, type: 'system_alert', details, at }, eventId);
  }

  /**
   * Appends one entry and announces it. Nothing is written about a deleted user (their entries
   * went with them), nor twice for one event.
   */
  private async append(tx: Tx, emit: Emit, draft: EntryDraft, sourceEventId?: string): Promise<ListedEntry | undefined> {
    let username: string | null = null;
    if (draft.userId !== null) {
      await this.repo.lockUserForWrite(tx, draft.userId);
      const user = await this.repo.findUser(tx, draft.userId);
      if (user?.deletedAt) return undefined;
      username = user?.username ?? draft.username ?? null;
    }
    if (draft.marks && !(await this.repo.markLogged(tx, draft.marks.messageId, draft.marks.stages))) {
      throw new StageTakenError(`a concurrent update of message ${draft.marks.messageId} was logged first; retrying`);
    }
    const row = await this.repo.insert(tx, {
      userId: draft.userId,
      username,
      type: draft.type,
      details: draft.details,
      location: draft.location ?? null,
      at: draft.at,
      sourceEventId: sourceEventId ?? null,
      monitorsOnly: draft.monitorsOnly === true,
    });
    if (!row) return undefined;
    await emit('audit.entry.recorded.v1', recordedEvent(row));
    return row;
  }
}
