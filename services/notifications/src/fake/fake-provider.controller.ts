import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command, RpcError } from '@lws/messaging';
import type { FakeCall, FakeTwilioControl } from '../fake-twilio/fake-twilio';
import { ProviderSettings } from '../provider/provider-settings';

type View = CommandMap['notifications.fake.calls.v1']['reply']['calls'][number];

const view = (c: FakeCall): View => ({
  callSid: c.sid,
  to: c.to,
  status: c.status,
  createdAt: c.createdAt,
  ...(c.say ? { say: c.say } : {}),
  ...(c.digits ? { digits: c.digits } : {}),
  ...(c.confirmation ? { confirmation: c.confirmation } : {}),
  ...(c.voice ? { voice: c.voice } : {}),
});

/** The fake provider's calls, for the superadmin SMS Test panel and end-to-end tests. */
@Controller()
export class FakeProviderController {
  constructor(private readonly settings: ProviderSettings) {}

  private fake(): FakeTwilioControl {
    if (!this.settings.fake) throw new RpcError(404, 'No test provider: a real Twilio account is configured');
    return this.settings.fake;
  }

  @Command('notifications.fake.calls.v1')
  async calls() {
    const { calls } = await this.fake().calls();
    return { calls: [...calls].reverse().map(view) };
  }

  /** A text to LWS's number from `from`, as the test provider delivers it (a worker's PIN reply). */
  @Command('notifications.fake.inbound_sms.v1')
  async inboundSms(@Payload() req: CommandMap['notifications.fake.inbound_sms.v1']['request']) {
    const { reply, status } = await this.fake().inboundSms(req.from, this.settings.fromNumber, req.body, this.settings.inboundSmsUrl());
    if (status !== 200) throw new RpcError(502, `LWS's inbound SMS webhook answered ${status || 'nothing'}`);
    return reply ? { reply } : {};
  }

  @Command('notifications.fake.answer.v1')
  async answer(@Payload() req: CommandMap['notifications.fake.answer.v1']['request']) {
    try {
      return { call: view(await this.fake().answer(req.callSid, req.action, req.digits)) };
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 404) throw new RpcError(404, 'Call not found', { field: 'callSid' });
      if (status === 409) throw new RpcError(409, (err as Error).message);
      throw err;
    }
  }
}
