const pad = (n: number) => String(n).padStart(2, '0');

/** The top of the next hour (a time exactly on the hour moves to the following one). */
export function nextFullHour(now: Date): Date {
  const next = new Date(now.getTime());
  next.setUTCMinutes(0, 0, 0);
  next.setUTCHours(next.getUTCHours() + 1);
  return next;
}

/** When the next check-in falls due: the server computes it from the shift start or last check-in. */
export function nextCheckInAt(from: Date, intervalMinutes: number): Date {
  return new Date(from.getTime() + intervalMinutes * 60_000);
}

/** HH:MM:SS, never negative (hours may exceed 24). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** 'Nh Nm', as the Force Clock Out table shows a shift's length. */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

export function toDate(value: string | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** A check-in interval as people say it: "hour", "30 minutes", "2 hours" (as in "every …"). */
export function intervalWords(minutes: number): string {
  if (minutes === 60) return 'hour';
  if (minutes < 60 || minutes % 60 !== 0) return `${minutes} minutes`;
  return `${minutes / 60} hours`;
}
