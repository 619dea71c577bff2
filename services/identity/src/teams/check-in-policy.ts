/** What the other services assume of a worker they have heard no check-in settings for. */
export const ASSUMED_INTERVAL = 60;

/**
 * The allowed interval nearest to `minutes`. Of two equally near, the shorter: the worker is
 * checked on sooner, which is the safer mistake.
 */
export function nearestAllowedInterval(minutes: number, allowed: readonly number[]): number {
  if (allowed.length === 0) throw new Error('A check-in policy allows at least one interval');
  let best = allowed[0];
  for (const candidate of allowed) {
    const closer = Math.abs(candidate - minutes) - Math.abs(best - minutes);
    if (closer < 0 || (closer === 0 && candidate < best)) best = candidate;
  }
  return best;
}

/** "30 minutes", "30 or 60 minutes", "30, 60 or 120 minutes". */
export function intervalChoices(allowed: readonly number[]): string {
  const sorted = [...allowed].sort((a, b) => a - b);
  const last = sorted.pop();
  return `${sorted.length > 0 ? `${sorted.join(', ')} or ` : ''}${last} minutes`;
}

/** The refusal of an interval the worker's team does not allow, with the ones it does. */
export function intervalNotAllowed(teamName: string, allowed: readonly number[]): string {
  return `Check-in interval must be ${intervalChoices(allowed)} for team ${teamName}`;
}
