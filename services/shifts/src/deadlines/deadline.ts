import type { SetDeadlineRequest } from '@lws/contracts';
import { RpcError } from '@lws/messaging';
import { nextFullHour } from '@lws/rules';

export const MINUTES_REQUIRED = 'minutesUntilDue is required to simulate a deadline';

/**
 * The deadline a superadmin's test tool asks for. Europe/London only ever differs from UTC by
 * whole hours, so the UTC top of the hour is the London one too.
 */
export function requestedDeadline(req: Pick<SetDeadlineRequest, 'mode' | 'minutesUntilDue'>, now: Date): Date {
  if (req.mode === 'top_of_next_hour') return nextFullHour(now);
  if (req.minutesUntilDue === undefined) throw new RpcError(400, MINUTES_REQUIRED, { field: 'minutesUntilDue' });
  return new Date(now.getTime() + Math.round(req.minutesUntilDue * 60_000));
}
