import { BadRequestException } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import { RemoteError, type RpcClient } from '@lws/messaging';
import type { Actor } from '../common/access';
import { parseInput } from '../common/validation';
import { publicUser } from '../auth/auth.service';
import { changePinSchema } from './credentials.schema';
import { requireSelf } from './self-only';

/**
 * The PIN branch of `PATCH /api/users/{id}` (a body with `pinCode`): self only; the current PIN
 * goes through identity's one verification path (400 wrong, 423 locked); a PIN another user has
 * is refused 409 without saying whose. Answers `User & {pinSet: true}`.
 */
export async function changePin(rpc: RpcClient, actor: Actor, userId: number, body: unknown) {
  requireSelf(actor, userId);
  const { currentPin, pinCode } = parseInput(changePinSchema, body);
  let user: CommandMap['identity.pin.change.v1']['reply']['user'];
  try {
    ({ user } = await rpc.send('identity.pin.change.v1', { userId, newPin: pinCode, ...(currentPin ? { currentPin } : {}) }));
  } catch (err) {
    // identity names its own field; the browser sent pinCode.
    if (err instanceof RemoteError && err.field === 'newPin') throw new BadRequestException({ message: err.message, field: 'pinCode' });
    throw err;
  }
  return { ...publicUser(user), ...(user.medicalInfo ? { medicalInfo: user.medicalInfo } : {}), pinSet: true as const };
}
