import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { Roles } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { answerSchema, callSidParam, deliveriesQuery, inboundSmsSchema } from './notifications.schema';

/**
 * Superadmin views of what notifications did: the delivery log, and the local test provider's
 * calls (embedded mode and tests; 404 when a real Twilio account is configured).
 */
@Controller('api')
@Roles('superadmin')
export class TestProviderController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Get('test-provider/calls')
  calls() {
    return this.rpc.send('notifications.fake.calls.v1', {});
  }

  /** `{digits?}`: the keys the callee presses (1 by default; a PIN on a check-in reminder call). */
  @Post('test-provider/calls/:callSid/accept')
  @HttpCode(200)
  accept(@Param('callSid') callSid: string, @Body() body: unknown) {
    const sid = this.sid(callSid);
    const { digits } = parseInput(answerSchema, body ?? {});
    return this.rpc.send('notifications.fake.answer.v1', { callSid: sid, action: 'accept', ...(digits ? { digits } : {}) });
  }

  @Post('test-provider/calls/:callSid/ignore')
  @HttpCode(200)
  ignore(@Param('callSid') callSid: string) {
    return this.rpc.send('notifications.fake.answer.v1', { callSid: this.sid(callSid), action: 'ignore' });
  }

  /**
   * A text to LWS's number from a phone, delivered by the test provider exactly as Twilio delivers
   * one (signed, to the inbound SMS webhook): a worker replying to a reminder with their PIN.
   * Answers what LWS texted back (`reply`, absent when it answered nothing).
   */
  @Post('test-provider/inbound-sms')
  @HttpCode(200)
  async inboundSms(@Body() body: unknown) {
    const { from, body: text } = parseInput(inboundSmsSchema, body);
    const { reply } = await this.rpc.send('notifications.fake.inbound_sms.v1', { from, body: text });
    return { reply: reply ?? null };
  }

  @Get('notifications/deliveries')
  deliveries(@Query() query: unknown) {
    const { limit, userId } = parseInput(deliveriesQuery, query);
    return this.rpc.send('notifications.delivery.list.v1', { limit: limit ?? 100, ...(userId !== undefined ? { userId } : {}) });
  }

  private sid(value: string): string {
    const r = callSidParam.safeParse(value);
    if (!r.success) throw new BadRequestException({ message: 'Invalid call SID', field: 'callSid' });
    return r.data;
  }
}
