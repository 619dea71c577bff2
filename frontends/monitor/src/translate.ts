import type { useT } from '@lws/fe-ui';

/** A screen's `t()` (from useT), for helpers outside a component that write a text. */
export type Translate = ReturnType<typeof useT>;

/** English as it is, its {{placeholders}} filled: what a helper writes when no screen passes its `t()`. */
export const english: Translate = (text, values) =>
  values ? text.replace(/{{\s*(\w+)\s*}}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : text;
