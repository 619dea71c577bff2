import { currentLocale, i18n } from '../i18n/i18n';

const formats = new Map<string, Intl.DateTimeFormat>();
/** A date and time in Europe/London, in the language shown now ("28 Nov 2026, 15:31", "28 Tach 2026, 15:31"). */
const london = (): Intl.DateTimeFormat => {
  const locale = currentLocale();
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      timeZone: 'Europe/London',
      day: '2-digit',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(locale, format);
  }
  return format;
};

const LONDON_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A time of day in Europe/London, "15:31". */
export function formatTime(at: string | Date): string {
  return LONDON_TIME.format(typeof at === 'string' ? new Date(at) : at);
}

/** Times travel as UTC ISO-8601 and are shown in Europe/London, whatever the device's zone. */
export function formatDateTime(iso: string | null | undefined, fallback = i18n.t('Never')): string {
  if (!iso) return fallback;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? fallback : london().format(date);
}
