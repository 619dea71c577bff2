import { Controller, HttpCode, Inject, NotFoundException, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { Public } from '../common/session.guard';

const KINDS = {
  voice: 'voice',
  gather: 'gather',
  'call-status': 'call_status',
  'message-status': 'message_status',
  'sms-inbound': 'sms_inbound',
} as const;

/**
 * Twilio's webhooks. No session and no CSRF header: notifications checks X-Twilio-Signature
 * against the URL and form parameters forwarded here, and answers 403 when it does not match.
 */
@Controller('webhooks/twilio')
@Public()
export class TwilioWebhooksController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Post(':kind')
  @HttpCode(200)
  async receive(@Param('kind') kind: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const mapped = Object.hasOwn(KINDS, kind) ? KINDS[kind as keyof typeof KINDS] : undefined;
    if (!mapped) throw new NotFoundException({ message: 'Unknown webhook' });
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries((req.body ?? {}) as Record<string, unknown>)) if (typeof v === 'string') params[k] = v;
    const reply = await this.rpc.send('notifications.webhook.twilio.v1', {
      kind: mapped,
      url: `${req.protocol}://${req.get('host')}${req.originalUrl}`,
      params,
      signature: (req.get('x-twilio-signature') ?? '').slice(0, 200),
    });
    res.status(200).type(reply.contentType).send(reply.body);
  }
}
