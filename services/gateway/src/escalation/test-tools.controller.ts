import { Body, ConflictException, Controller, Get, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { SetDeadlineRequest } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { actorOf, authorizeUserAccess, PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { browserWorker } from '../shifts/worker.view';
import { alarmScope } from './alarm-scope';
import { simulateTimeSchema } from './escalation.schema';

export const WORKER_NOT_ON_SHIFT = 'This worker is not on shift';
/** Running every due step at once can take longer than a lookup. */
const PROCESS_DUE_TIMEOUT_MS = 30_000;

/**
 * The spec's testing tools (section 7, Testing and reminders). The deadline tools move a real
 * worker's next check-in, and escalation acts on the moved deadline as on any other.
 */
@Controller('api')
export class TestToolsController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  /** The next check-in falls due `minutesUntilDue` minutes from now. */
  @Post('simulate-specific-time/:id')
  @Roles('superadmin')
  @HttpCode(200)
  async simulateSpecificTime(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    const { minutesUntilDue } = parseInput(simulateTimeSchema, body);
    return this.setDeadline(req, id, { mode: 'minutes_until_due', minutesUntilDue });
  }

  /** The next check-in falls due at the top of the next hour. */
  @Post('reset-check-in-timer/:id')
  @Roles('superadmin')
  @HttpCode(200)
  resetCheckInTimer(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    return this.setDeadline(req, id, { mode: 'top_of_next_hour' });
  }

  /** The next check-in falls due now: the missed check-in fires as it would for real. */
  @Post('simulate-check-in-due/:id')
  @Roles('superadmin')
  @HttpCode(200)
  simulateCheckInDue(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    return this.setDeadline(req, id, { mode: 'minutes_until_due', minutesUntilDue: 0 });
  }

  /** Who is on shift, when each is due, and which reminders are about to go out. */
  @Get('test-reminders/status')
  @Roles('superadmin')
  async reminderStatus() {
    const reply = await this.rpc.send('escalation.reminder.status.v1', {});
    return {
      reminderSystemActive: reply.reminderSystemActive,
      activeWorkers: reply.activeWorkers,
      now: reply.now,
      workers: reply.workers.map((w) => ({
        id: w.userId,
        name: w.name ?? null,
        phone: w.phone ?? null,
        nextCheckIn: w.nextCheckInAt ?? null,
        minutesUntil: w.minutesUntil ?? null,
        due5min: w.due_5min,
        due2min: w.due_2min,
      })),
    };
  }

  /**
   * The spec's clients call this every 5 minutes. Escalation's own timers already run every due
   * step within seconds; this runs at once whatever is due of the caller's: an admin's teams'
   * workers' check-ins and their teams' alarms, everything for the superadmin.
   */
  @Post('process-missed-check-ins')
  @Roles('admin', 'superadmin')
  @HttpCode(200)
  async processMissedCheckIns(@Req() req: AuthedRequest) {
    const scope = await alarmScope(this.rpc, actorOf(req));
    const reply = await this.rpc.send('escalation.deadline.process_due.v1', scope, { timeoutMs: PROCESS_DUE_TIMEOUT_MS });
    return { processed: reply.processed, results: reply.results.map((r) => ({ userId: r.userId, status: r.status })) };
  }

  private async setDeadline(req: AuthedRequest, userId: number, change: Pick<SetDeadlineRequest, 'mode' | 'minutesUntilDue'>) {
    const actor = actorOf(req);
    await authorizeUserAccess(this.rpc, actor, userId);
    try {
      const { worker } = await this.rpc.send('shifts.deadline.set.v1', { userId, byUserId: actor.userId, ...change });
      return { nextCheckInTime: worker.nextCheckInAt ?? null, user: browserWorker(worker) };
    } catch (err) {
      if (err instanceof RemoteError && err.code === 'not_on_shift') throw new ConflictException({ message: WORKER_NOT_ON_SHIFT });
      throw err;
    }
  }
}
