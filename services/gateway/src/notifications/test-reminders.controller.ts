import { BadRequestException, Body, Controller, HttpCode, Inject, NotFoundException, Param, Post } from '@nestjs/common';
import { RemoteError, type RpcClient } from '@lws/messaging';
import type { UserView } from '../common/access';
import { PositiveIntPipe } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { REMINDER_TEXT, reminderTestSchema } from './notifications.schema';

/** The superadmin SMS Test panel's reminder sends: the worker's phone, now, with the provider's answer. */
@Controller('api')
@Roles('superadmin')
export class TestRemindersController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Post('test-reminders/send-test-5min')
  @HttpCode(200)
  fiveMinutes(@Body() body: unknown) {
    return this.sendSms(parseInput(reminderTestSchema, body).userId, 'reminder_5min', REMINDER_TEXT.fiveMinutes);
  }

  @Post('test-reminders/send-test-2min')
  @HttpCode(200)
  twoMinutes(@Body() body: unknown) {
    return this.sendSms(parseInput(reminderTestSchema, body).userId, 'reminder_2min', REMINDER_TEXT.twoMinutes);
  }

  /** Both reminder texts over WhatsApp; an empty id means that message failed (63005 adds the opt-in steps). */
  @Post('test-whatsapp-reminders/:userId')
  @HttpCode(200)
  async whatsapp(@Param('userId', new PositiveIntPipe('userId')) userId: number) {
    const user = await this.workerWithPhone(userId);
    const send = (purpose: 'reminder_5min' | 'reminder_2min', text: string) =>
      this.rpc.send('notifications.message.send.v1', { channel: 'whatsapp', to: user.phone!, body: text, purpose, userId });
    const five = await send('reminder_5min', REMINDER_TEXT.fiveMinutes);
    const two = await send('reminder_2min', REMINDER_TEXT.twoMinutes);
    const failed = [five, two].find((r) => !r.providerSid);
    const setupSteps = five.setupSteps.length > 0 ? five.setupSteps : two.setupSteps;
    return {
      whatsappNumber: five.from ?? '',
      userPhone: user.phone,
      results: { fiveMinutes: five.providerSid ?? '', twoMinutes: two.providerSid ?? '' },
      ...(setupSteps.length > 0 ? { setupSteps } : {}),
      ...(failed
        ? {
            error: failed.errorCode
              ? `${failed.errorCode}: ${failed.errorMessage ?? 'send failed'}`
              : (failed.errorMessage ?? 'Failed to send'),
          }
        : {}),
    };
  }

  private async sendSms(userId: number, purpose: 'reminder_5min' | 'reminder_2min', text: string) {
    const user = await this.workerWithPhone(userId);
    const r = await this.rpc.send('notifications.message.send.v1', { channel: 'sms', to: user.phone!, body: text, purpose, userId });
    return {
      user: { id: user.id, name: user.name },
      result: {
        messageId: r.messageId,
        status: r.status,
        ...(r.providerSid ? { providerSid: r.providerSid } : {}),
        ...(r.errorCode !== undefined ? { errorCode: r.errorCode } : {}),
        ...(r.errorMessage ? { errorMessage: r.errorMessage } : {}),
      },
    };
  }

  private async workerWithPhone(userId: number): Promise<UserView> {
    let user: UserView;
    try {
      ({ user } = await this.rpc.send('identity.user.get.v1', { userId }));
    } catch (err) {
      if (err instanceof RemoteError && err.status === 404) throw new NotFoundException({ message: 'User not found', field: 'userId' });
      throw err;
    }
    if (!user.phone || !/^\+[1-9][0-9]{1,14}$/.test(user.phone)) {
      throw new BadRequestException({ message: 'This user has no valid phone number', field: 'userId' });
    }
    return user;
  }
}
