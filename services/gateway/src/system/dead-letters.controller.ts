import { BadRequestException, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { CommandMap, CommandPattern } from '@lws/contracts';
import { errorMessage, type RpcClient } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';
import { actorOf, authorizeUserAccess } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { BACKEND_SERVICES } from './system.controller';

type Service = (typeof BACKEND_SERVICES)[number];
type LetterView = CommandMap['identity.deadletter.list.v1']['reply']['letters'][number];
type ReplayReply = CommandMap['identity.deadletter.replay.v1']['reply'];

/** Letters shown per service; the count is of all of them. */
const LIST_LIMIT = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const BAD_ID = 'Invalid dead letter id';

/** A letter as the browser sees it: its id names the service that holds it. */
function browserLetter(service: Service, l: LetterView) {
  return {
    id: `${service}:${l.id}`,
    service,
    kind: l.kind,
    consumer: l.consumer,
    subject: l.subject,
    eventId: l.eventId ?? null,
    error: l.error,
    attempts: l.attempts,
    firstSeenAt: l.firstSeenAt,
  };
}

function parseId(id: string): { service: Service; letterId: string } {
  const [service, letterId, ...rest] = id.split(':');
  if (rest.length > 0 || !(BACKEND_SERVICES as readonly string[]).includes(service) || !UUID.test(letterId ?? '')) {
    throw new BadRequestException({ message: BAD_ID, field: 'id' });
  }
  return { service: service as Service, letterId };
}

/**
 * Dead letters across every service (superadmin): events a consumer could not apply and events
 * the bus refused. Replay and discard are recorded in the activity log under the superadmin.
 */
@Controller('api/dead-letters')
export class DeadLettersController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Get()
  @Roles('superadmin')
  async list() {
    const replies = await Promise.all(
      BACKEND_SERVICES.map(async (service) => {
        try {
          const reply = await this.rpc.send(
            `${service}.deadletter.list.v1` as 'identity.deadletter.list.v1',
            { limit: LIST_LIMIT },
            { timeoutMs: 3000 },
          );
          return { service, reply };
        } catch (err) {
          this.logger.warn({ service, error: errorMessage(err) }, 'dead letters of a service could not be listed');
          return { service, reply: undefined };
        }
      }),
    );
    const letters = replies
      .flatMap(({ service, reply }) => (reply?.letters ?? []).map((l) => browserLetter(service, l)))
      .sort((a, b) => a.firstSeenAt.localeCompare(b.firstSeenAt));
    return {
      count: replies.reduce((n, { reply }) => n + (reply?.total ?? 0), 0),
      letters,
      // A service that did not answer may hold letters of its own: the count does not include them.
      unreachable: replies.filter((r) => !r.reply).map((r) => r.service),
    };
  }

  @Post(':id/replay')
  @HttpCode(200)
  @Roles('superadmin')
  async replay(@Param('id') id: string, @Req() req: AuthedRequest) {
    const { service, letterId } = parseId(id);
    const actor = actorOf(req);
    const reply = (await this.rpc.send(
      `${service}.deadletter.replay.v1` as CommandPattern,
      { id: letterId, byUserId: actor.userId } as never,
    )) as ReplayReply;
    const letter = browserLetter(service, reply.letter);
    await this.record(
      req,
      reply.replayed
        ? `Dead letter replayed: ${describe(letter)}`
        : `Dead letter replay failed again (${reply.error}): ${describe(letter)}`,
    );
    return { letter, replayed: reply.replayed, ...(reply.error ? { error: reply.error } : {}) };
  }

  @Post(':id/discard')
  @HttpCode(200)
  @Roles('superadmin')
  async discard(@Param('id') id: string, @Req() req: AuthedRequest) {
    const { service, letterId } = parseId(id);
    const actor = actorOf(req);
    const reply = await this.rpc.send(`${service}.deadletter.discard.v1` as 'identity.deadletter.discard.v1', {
      id: letterId,
      byUserId: actor.userId,
    });
    const letter = browserLetter(service, reply.letter);
    await this.record(req, `Dead letter discarded: ${describe(letter)}`);
    return { letter, discarded: true };
  }

  /** The action is done whatever happens here; an entry that cannot be written is logged instead. */
  private async record(req: AuthedRequest, details: string): Promise<void> {
    const actor = actorOf(req);
    try {
      const user = await authorizeUserAccess(this.rpc, actor, actor.userId);
      await this.rpc.send('audit.entry.record.v1', {
        userId: user.id,
        username: user.username,
        type: 'system_alert',
        details: details.slice(0, 1000),
      });
    } catch (err) {
      this.logger.error(
        { userId: actor.userId, details, error: errorMessage(err) },
        'dead letter action done but not recorded in the activity log',
      );
    }
  }
}

function describe(l: ReturnType<typeof browserLetter>): string {
  return `${l.service} ${l.kind === 'outbox' ? 'outbox' : `consumer ${l.consumer}`}, ${l.subject}${l.eventId ? `, event ${l.eventId}` : ''}`;
}
