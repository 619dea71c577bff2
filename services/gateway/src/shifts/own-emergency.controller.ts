import { Body, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { WorkerAlarmView } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { actorOf, PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { verifyWorkerPin, withDuress } from '../credentials/pin-check';
import { AlarmIdPipe } from '../escalation/escalation.schema';
import { requireOwnShift } from './own-shift';
import { cancelEmergencySchema } from './shifts.schema';

/** The worker's emergency as their own screen shows it: every field present, null where nothing yet. */
export function browserOwnEmergency(a: WorkerAlarmView) {
  return {
    id: a.id,
    state: a.state,
    openedAt: a.openedAt,
    acknowledgedByName: a.acknowledgedByName ?? null,
    acknowledgedAt: a.acknowledgedAt ?? null,
    safeAt: a.workerSafeAt ?? null,
    // Each in English with the person it names: the screen shows it in the worker's language.
    updates: a.updates.map((u) => ({ at: u.at, text: u.text, name: u.name ?? null })),
  };
}

/**
 * The worker's own emergency screen: from the moment they raise an emergency until a
 * monitor resolves it, what has happened and who is dealing with it, and "I'm safe now".
 */
@Controller('api/users/:id/emergency')
export class OwnEmergencyController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** `{ emergency: null }` when none is open. */
  @Get()
  async current(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    requireOwnShift(actorOf(req), id);
    const { alarm } = await this.rpc.send('escalation.alarm.own.v1', { userId: id });
    return { emergency: alarm ? browserOwnEmergency(alarm) : null };
  }

  /**
   * "I'm safe now": the PIN first (400 wrong, 423 locked: nothing changes), then escalation stops
   * and the emergency waits for a monitor to confirm it as a false alarm. The duress PIN answers
   * the same while the emergency goes on, and a duress alarm opens besides.
   */
  @Post(':alarmId/cancel')
  @HttpCode(200)
  async cancel(
    @Param('id', new PositiveIntPipe()) id: number,
    @Param('alarmId') rawAlarmId: string,
    @Body() body: unknown,
    @Req() req: AuthedRequest,
  ) {
    requireOwnShift(actorOf(req), id);
    // Checked after the access rule, so another's request is a 403 whatever the id.
    const alarmId = new AlarmIdPipe().transform(rawAlarmId);
    const { pin } = parseInput(cancelEmergencySchema, body);
    const { duress } = await verifyWorkerPin(this.rpc, id, pin);
    const { alarm } = await withDuress(this.rpc, id, duress, () =>
      this.rpc.send('escalation.alarm.mark_safe.v1', { alarmId, userId: id, ...(duress ? { underDuress: true } : {}) }),
    );
    return { emergency: browserOwnEmergency(alarm) };
  }
}
