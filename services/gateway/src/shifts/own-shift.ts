import { ForbiddenException } from '@nestjs/common';
import type { Actor } from '../common/access';

export const WORKERS_ONLY = 'Shifts, check-ins and emergency calls are for workers';
export const NOT_YOURS = 'Not allowed for your role';

/**
 * Starting and ending a shift, checking in and calling for help are things a worker does for
 * themselves (spec section 6): nobody acts on another account's shift this way, whatever the
 * role, and the answer does not depend on whether the id exists.
 */
export function requireOwnShift(actor: Actor, userId: number): void {
  if (actor.userId !== userId) throw new ForbiddenException({ message: NOT_YOURS });
  if (actor.role !== 'worker') throw new ForbiddenException({ message: WORKERS_ONLY });
}
