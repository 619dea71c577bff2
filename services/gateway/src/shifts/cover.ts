import { ConflictException } from '@nestjs/common';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import type { Logger } from '@lws/platform';

/** How far ahead a shift about to start needs someone on call: a working day. */
export const COVER_HORIZON_MS = 8 * 3600_000;
/** The check never holds a shift back for long: past this, the shift starts unchecked. */
const COVER_TIMEOUT_MS = 3000;

export interface CoverWarning {
  gapStart: string;
  gapEnd: string;
}

const londonTime = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    new Date(iso),
  );

/**
 * Whether the worker's team has someone on call for the shift about to start (the next 8 hours).
 * A team that refuses shifts without cover gets a 409 naming `cover`; one that warns gets the first
 * gap back, for the worker's screen. A check that cannot be made (identity away) never stops a
 * shift: the worker is safer on shift than off it, and the failure is logged.
 */
export async function checkCover(rpc: RpcClient, userId: number, now: Date, logger: Logger): Promise<CoverWarning | undefined> {
  let reply: CommandMap['identity.team.cover.v1']['reply'];
  try {
    reply = await rpc.send(
      'identity.team.cover.v1',
      { userId, from: now.toISOString(), to: new Date(now.getTime() + COVER_HORIZON_MS).toISOString() },
      { timeoutMs: COVER_TIMEOUT_MS },
    );
  } catch (err) {
    logger.warn(
      { userId, err: err instanceof Error ? err.message : String(err) },
      'on-call cover could not be checked: the shift starts unchecked',
    );
    return undefined;
  }
  const [gap] = reply.gaps;
  if (!gap || reply.required === 'off') return undefined;
  if (reply.required === 'refuse') {
    throw new ConflictException({
      message: `Nobody is on call for your team from ${londonTime(gap.start)}: your shift cannot start. Call your manager.`,
      field: 'cover',
    });
  }
  return { gapStart: gap.start, gapEnd: gap.end };
}
