import { BadRequestException, Body, Controller, ForbiddenException, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { RemoteError, urgency, type RpcClient } from '@lws/messaging';
import { LOGGER, type Logger } from '@lws/platform';
import { actorOf } from '../common/access';
import { RPC } from '../common/rpc';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { testCallSchema } from '../notifications/notifications.schema';
import { requireOwnShift } from './own-shift';
import { emergencySchema, emergencyUserSchema } from './shifts.schema';
import { browserWorker } from './worker.view';

@Controller('api/emergency-call')
export class EmergencyController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Raises the emergency (shifts.emergency.raised.v1 goes out at once) and, meanwhile, looks up who
   * will be contacted: the worker's screen waits for one round trip, not two (in a flood each takes
   * long). The emergency stands even when that lookup fails: the worker must not be told to try
   * again for an alert that has already gone.
   */
  @Post()
  @HttpCode(200)
  async raise(@Body() body: unknown, @Req() req: AuthedRequest) {
    if (body && typeof body === 'object' && 'phoneNumber' in body) return this.testCall(body, req);
    const { userId } = parseInput(emergencyUserSchema, body);
    requireOwnShift(actorOf(req), userId);
    parseInput(emergencySchema, body);
    // Bulk work in this process waits while the press is on its way (Urgency).
    const raised = urgency.during(() => this.rpc.send('shifts.emergency.raise.v1', { userId }));
    const relations = this.rpc.send('identity.user.get_with_relations.v1', { userId }).then(
      (found) => ({ found }),
      (err: unknown) => ({ err }),
    );
    const { worker } = await raised;
    let contact: string | null = null;
    let contactName: string | null = null;
    const looked = await relations;
    if ('err' in looked) {
      this.logger.warn({ err: looked.err, userId }, 'emergency raised, but its contacts could not be looked up');
    } else {
      const { settings, emergencyContacts } = looked.found;
      const first = emergencyContacts[0];
      contact = settings?.primaryContact ?? first?.phone ?? null;
      contactName = emergencyContacts.find((c) => c.phone === contact)?.name ?? first?.name ?? null;
    }
    return { contact, contactName, user: browserWorker(worker) };
  }

  /** The superadmin's test voice call (System Testing): the real voice flow to the number given. */
  private async testCall(body: unknown, req: AuthedRequest) {
    if (actorOf(req).role !== 'superadmin') throw new ForbiddenException({ message: 'Not allowed for your role' });
    const { phoneNumber, workerName, location } = parseInput(testCallSchema, body);
    try {
      return await this.rpc.send('notifications.call.test.v1', {
        to: phoneNumber,
        workerName: workerName || 'Test worker',
        location: location || 'Test location',
      });
    } catch (err) {
      if (err instanceof RemoteError && err.status === 400) throw new BadRequestException({ message: err.message, field: 'phoneNumber' });
      throw err;
    }
  }
}
