import { Body, Controller, ForbiddenException, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { actorOf, PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { awaySchema } from './teams.schema';

/**
 * An admin away (leave, off sick, off duty): while away, their deputy takes their place as a
 * monitor of each team they monitor (docs/api-teams.md). An admin sets their own; the superadmin
 * anyone's.
 */
@Controller('api/users')
@Roles('admin', 'superadmin')
export class AwayController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Post(':id/away')
  @HttpCode(200)
  async setAway(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    const { until } = parseInput(awaySchema, body);
    const actor = actorOf(req);
    if (actor.role === 'admin' && actor.userId !== id) throw new ForbiddenException({ message: 'Not allowed for your role' });
    const reply = await this.rpc.send('identity.user.set_away.v1', { userId: id, ...(until ? { until } : {}) });
    return { awayUntil: reply.awayUntil ?? null };
  }
}
