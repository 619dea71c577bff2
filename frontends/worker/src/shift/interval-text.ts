import type { useT } from '@lws/fe-ui';

/** A screen's `t()` (from useT), for helpers outside a component that write a text. */
export type Translate = ReturnType<typeof useT>;

/**
 * The check-in interval in words, as `intervalWords` (@lws/rules) writes it in English ('hour',
 * '30 minutes', '2 hours'), in the language shown: it follows "every" in the texts that use it.
 */
export function intervalText(t: Translate, minutes: number): string {
  if (minutes === 60) return t('hour');
  if (minutes < 60 || minutes % 60 !== 0) return t('{{minutes}} minutes', { minutes });
  return t('{{hours}} hours', { hours: minutes / 60 });
}
