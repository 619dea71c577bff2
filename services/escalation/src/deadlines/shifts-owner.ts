import { Inject, Injectable } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { errorMessage, type RpcClient } from '@lws/messaging';
import { LOGGER, RPC, type Logger } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';

export type OwnerView = CommandMap['shifts.worker.states.v1']['reply']['workers'][number];

/** What shifts, the owner of every shift and deadline, says of a worker; `unavailable` when it could not be asked. */
export type OwnerAnswer = { kind: 'known'; view: OwnerView } | { kind: 'unknown' } | { kind: 'unavailable' };

/**
 * Asks shifts for the workers' current state. Escalation's copy is built from events, and an event
 * can be late (a database outage on either side) or lost; before a missed check-in alarm is
 * raised, the owner is asked whether the deadline still stands. When it cannot answer in time the
 * alarm is raised anyway: a false alarm is better than a silent one.
 */
@Injectable()
export class ShiftsOwner {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(SETTINGS) private readonly settings: EscalationSettings,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async current(userIds: readonly number[]): Promise<Map<number, OwnerAnswer>> {
    const answers = new Map<number, OwnerAnswer>();
    if (userIds.length === 0) return answers;
    const unique = [...new Set(userIds)];
    try {
      const { workers } = await this.rpc.send(
        'shifts.worker.states.v1',
        { userIds: unique },
        { timeoutMs: this.settings.ownerCheckTimeoutMs },
      );
      for (const id of unique) answers.set(id, { kind: 'unknown' });
      // A worker shifts has no record of at all (no username from identity) is not proof the shift
      // ended: only a worker shifts knows counts, so the alarm is never skipped on missing data.
      for (const view of workers) if (view.onShift || view.username !== undefined) answers.set(view.userId, { kind: 'known', view });
    } catch (err) {
      this.logger.warn(
        { userIds: unique, error: errorMessage(err) },
        "shifts could not confirm the missed check-ins; raising the alarms on escalation's own copy",
      );
      for (const id of unique) answers.set(id, { kind: 'unavailable' });
    }
    return answers;
  }
}
