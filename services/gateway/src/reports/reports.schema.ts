import { z } from 'zod';

export const TEAM_ID_MESSAGE = 'teamId must be a team ID';
export const MONTH_MESSAGE = 'month must be a month as YYYY-MM, from 2000-01 to a year from now';

const MONTH = /^(20[0-9]{2})-(0[1-9]|1[0-2])$/;

const londonYearMonth = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit' });

/** The London month an instant falls in, as `YYYY-MM`. */
export function londonMonthOf(at: Date): string {
  const p = Object.fromEntries(londonYearMonth.formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}`;
}

const ordinal = (month: string) => Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;

/**
 * `GET /api/reports/alarms?month=YYYY-MM&teamId=N`: the current London month when absent; every team when no teamId. A month more
 * than twelve ahead of the current one is refused: a report of the future is always empty, and a
 * far-off value is a mistake worth telling the caller about. Other parameters (cache busters) are ignored.
 */
export function reportQuery(now: Date) {
  const current = londonMonthOf(now);
  return z.object({
    month: z
      .string({ invalid_type_error: MONTH_MESSAGE })
      .regex(MONTH, MONTH_MESSAGE)
      .refine((m) => ordinal(m) <= ordinal(current) + 12, MONTH_MESSAGE)
      .default(current),
    /** Only that team's alarms. */
    teamId: z
      .string({ invalid_type_error: TEAM_ID_MESSAGE })
      .regex(/^[1-9][0-9]{0,9}$/, TEAM_ID_MESSAGE)
      .transform(Number)
      .refine((n) => n <= 2147483647, TEAM_ID_MESSAGE)
      .optional(),
  });
}
