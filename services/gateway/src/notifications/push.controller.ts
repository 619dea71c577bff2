import { Body, Controller, Get, Header, HttpCode, Inject, Post, Req } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import type { AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { subscribeSchema } from './notifications.schema';

/** Web push for any signed-in user: the VAPID public key, and storing this browser's subscription. */
@Controller('api/push')
export class PushController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get('public-key')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  async publicKey(): Promise<string> {
    return (await this.rpc.send('notifications.push.public_key.v1', {})).publicKey;
  }

  @Post('subscribe')
  @HttpCode(201)
  async subscribe(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { endpoint, keys } = parseInput(subscribeSchema, body);
    const { subscriptionId } = await this.rpc.send('notifications.push.subscribe.v1', { userId: req.session!.userId, endpoint, keys });
    return { subscriptionId };
  }
}
