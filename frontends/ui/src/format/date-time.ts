const LONDON = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A time of day in Europe/London, "15:31". */
export function formatTime(at: string | Date): string {
  return LONDON_TIME.format(typeof at === 'string' ? new Date(at) : at);
}

/** Times travel as UTC ISO-8601 and are shown in Europe/London, whatever the device's zone. */
export function formatDateTime(iso: string | null | undefined, fallback = 'Never'): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : LONDON.format(date);
}
