import { ForbiddenException } from '@nestjs/common';
import type { Actor } from '../common/access';

export const OWN_PIN_ONLY = 'Only the account holder can use its PIN';

/**
 * PIN steps prove the person at the keyboard is the account holder, so nobody acts on another
 * account's PIN, whatever their role (a superadmin resets a PIN instead). The answer does not
 * depend on whether the id exists.
 */
export function requireSelf(actor: Actor, userId: number): void {
  if (actor.userId !== userId) throw new ForbiddenException({ message: OWN_PIN_ONLY });
}
