import { Body, Controller, HttpCode, HttpException, Inject, Param, Post, Put, Req } from '@nestjs/common';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { actorOf, authorizeUserAccess, PositiveIntPipe } from '../common/access';
import { parseInput } from '../common/validation';
import { checkWorkerPin } from './pin-check';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { COUNTERS, type Counters } from '../sessions/rate-limiter';
import { SESSION_STORE, type SessionStore } from '../sessions/session.store';
import { changePasswordSchema, duressPinSchema, verifyPinSchema } from './credentials.schema';
import { requireSelf } from './self-only';

/** Wrong current passwords per user before change-password waits: a stolen session cannot guess the password. */
const MAX_WRONG_PASSWORDS = 5;
const WRONG_PASSWORD_WINDOW_SECONDS = 900;
export const TOO_MANY_PASSWORD_ATTEMPTS = 'Too many incorrect passwords. Please wait a few minutes and try again.';

@Controller()
export class CredentialsController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(SESSION_STORE) private readonly sessions: SessionStore,
    @Inject(COUNTERS) private readonly counters: Counters,
  ) {}

  /** Every other session of the user is revoked; the one that changed the password stays. */
  @Post('api/auth/change-password')
  @HttpCode(200)
  async changePassword(@Body() body: unknown, @Req() req: AuthedRequest) {
    const { currentPassword, newPassword } = parseInput(changePasswordSchema, body);
    const userId = req.session!.userId;
    const key = `change-password:${userId}`;
    if ((await this.counters.peek(key)) >= MAX_WRONG_PASSWORDS) throw new HttpException({ message: TOO_MANY_PASSWORD_ATTEMPTS }, 429);
    try {
      await this.rpc.send('identity.password.change.v1', { userId, currentPassword, newPassword });
    } catch (err) {
      if (err instanceof RemoteError && err.field === 'currentPassword') await this.counters.hit(key, WRONG_PASSWORD_WINDOW_SECONDS);
      throw err;
    }
    await this.counters.reset(key);
    await this.sessions.destroyAllForUser(userId, req.sessionId);
    return { message: 'Password changed' };
  }

  @Post('api/users/:id/verify-pin')
  @HttpCode(200)
  async verifyPin(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    requireSelf(actorOf(req), id);
    const { pin } = parseInput(verifyPinSchema, body);
    // The duress PIN answers exactly as the PIN: nothing in the reply may tell them apart.
    await checkWorkerPin(this.rpc, id, pin);
    return { valid: true };
  }

  /**
   * The worker's duress PIN: self, with the current PIN (400 wrong, 423 locked). It must
   * differ from the PIN (400 naming duressPin); null removes it. Answers whether one is set.
   */
  @Put('api/users/:id/duress-pin')
  @HttpCode(200)
  async setDuressPin(@Param('id', new PositiveIntPipe()) id: number, @Body() body: unknown, @Req() req: AuthedRequest) {
    requireSelf(actorOf(req), id);
    const { currentPin, duressPin } = parseInput(duressPinSchema, body);
    const { user } = await this.rpc.send('identity.pin.set_duress.v1', {
      userId: id,
      currentPin,
      ...(duressPin !== null ? { duressPin } : {}),
    });
    return { duressPinSet: user.duressPinSet === true };
  }

  /** A new random PIN, shown once; it also lifts a PIN lockout. */
  @Post('api/users/:id/reset-pin')
  @Roles('superadmin')
  @HttpCode(200)
  async resetPin(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    await authorizeUserAccess(this.rpc, actor, id);
    const { pin } = await this.rpc.send('identity.pin.reset.v1', { userId: id, resetBy: actor.userId });
    return { pin };
  }

  /** A one-time password, shown once; the user's sessions end (a superadmin resetting its own keeps this one). */
  @Post('api/users/:id/reset-password')
  @Roles('superadmin')
  @HttpCode(200)
  async resetPassword(@Param('id', new PositiveIntPipe()) id: number, @Req() req: AuthedRequest) {
    const actor = actorOf(req);
    await authorizeUserAccess(this.rpc, actor, id);
    const { temporaryPassword } = await this.rpc.send('identity.password.reset.v1', { userId: id, resetBy: actor.userId });
    await this.sessions.destroyAllForUser(id, id === actor.userId ? req.sessionId : undefined);
    return { temporaryPassword };
  }
}
