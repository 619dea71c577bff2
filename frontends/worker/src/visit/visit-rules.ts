import { msg } from '@lws/fe-ui';
import type { Translate } from '../shift/interval-text';

// The server's own check of a visit (`startVisitSchema` of '@lws/schemas'), in its words, written
// out here: the schema would bring zod into the worker's bundle, which a cheap phone downloads
// before its first check-in. visit-rules.spec.ts holds the two to the same answers and the same
// limits.

/** A timed visit lasts this many minutes at least and at most (`VISIT_MIN_MINUTES`, `VISIT_MAX_MINUTES`). */
export const VISIT_MIN_MINUTES = 5;
export const VISIT_MAX_MINUTES = 240;
/** The lengths the form offers (`VISIT_MINUTES`), and the one it starts at (`VISIT_DEFAULT_MINUTES`). */
export const VISIT_MINUTES: readonly number[] = [15, 30, 45, 60, 90, 120];
export const VISIT_DEFAULT_MINUTES = 30;
export const VISIT_WHERE_MAX = 200;
export const VISIT_NOTE_MAX = 1000;

export const VISIT_WHERE_REQUIRED = msg('Say where the visit is: an address or a location');
export const VISIT_WHERE_TOO_LONG = msg('Where the visit is must be at most 200 characters');
export const VISIT_MINUTES_INVALID = msg('The visit must last from 5 to 240 minutes');
export const VISIT_NOTE_INVALID = msg('The note must be text of at most 1000 characters');

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what these fields refuse.
const DISGUISING = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

export interface VisitFormValues {
  where: string;
  minutes: number;
  note: string;
}

export type VisitField = 'where' | 'minutes' | 'note' | 'visitTypeId';

/** Each field's problem (the English, shown through t()), as the schema's first one for it; empty when the form may be sent. */
export function visitProblems({ where, minutes, note }: VisitFormValues): Partial<Record<VisitField, string>> {
  const problems: Partial<Record<VisitField, string>> = {};
  const place = where.trim();
  if (!place) problems.where = VISIT_WHERE_REQUIRED;
  else if (place.length > VISIT_WHERE_MAX) problems.where = VISIT_WHERE_TOO_LONG;
  else if (DISGUISING.test(place) || /[\n\t]/.test(place)) problems.where = VISIT_WHERE_REQUIRED;
  if (!Number.isInteger(minutes) || minutes < VISIT_MIN_MINUTES || minutes > VISIT_MAX_MINUTES) problems.minutes = VISIT_MINUTES_INVALID;
  const text = note.trim();
  if (text.length > VISIT_NOTE_MAX || DISGUISING.test(text)) problems.note = VISIT_NOTE_INVALID;
  return problems;
}

/** What `POST /api/users/{id}/start-visit` is sent. */
export interface StartVisitBody {
  where: string;
  minutes: number;
  note?: string;
  visitTypeId?: string;
}

/** The body for a form that passed `visitProblems`: trimmed, without an empty note or type. */
export function startVisitBody(values: VisitFormValues, visitTypeId: string | null): StartVisitBody {
  const note = values.note.trim();
  return {
    where: values.where.trim(),
    minutes: values.minutes,
    ...(note ? { note } : {}),
    ...(visitTypeId ? { visitTypeId } : {}),
  };
}

/** A kind of visit the worker's team defined (e.g. "Home visit, high risk"), with how long it lasts. */
export interface VisitType {
  id: string;
  name: string;
  /** The visit's length it starts with; null when the server sent none the form can offer. */
  minutes: number | null;
  /** Minutes between check-ins while it lasts; null: the worker's own interval. */
  checkInInterval: number | null;
  smsToo: boolean;
}

const validMinutes = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= VISIT_MIN_MINUTES && v <= VISIT_MAX_MINUTES;

/** The visit types of the worker's team (`team.visitTypes` of their record); none when absent or unreadable. */
export function parseVisitTypes(team: unknown): VisitType[] {
  const list = team && typeof team === 'object' ? (team as { visitTypes?: unknown }).visitTypes : undefined;
  if (!Array.isArray(list)) return [];
  const types: VisitType[] = [];
  for (const item of list) {
    const v = item && typeof item === 'object' ? (item as Record<string, unknown>) : null;
    const id = typeof v?.id === 'string' ? v.id : typeof v?.id === 'number' && Number.isFinite(v.id) ? String(v.id) : '';
    const name = typeof v?.name === 'string' ? v.name.trim() : '';
    if (!v || !id || !name || types.some((t) => t.id === id)) continue;
    types.push({
      id,
      name,
      minutes: validMinutes(v.minutes) ? v.minutes : null,
      checkInInterval: typeof v.checkInInterval === 'number' && v.checkInInterval > 0 ? v.checkInInterval : null,
      smsToo: v.smsToo === true,
    });
  }
  return types;
}

/** A visit's length in words: '45 minutes', '1 hour', '2 hours', '1 h 30 min'. */
export function visitLength(t: Translate, minutes: number): string {
  if (minutes < 60) return t('{{minutes}} minutes', { minutes });
  if (minutes === 60) return t('1 hour');
  if (minutes % 60 === 0) return t('{{hours}} hours', { hours: minutes / 60 });
  return t('{{hours}} h {{minutes}} min', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** The lengths to offer: the presets, and those given that are not among them (the one chosen, the visit type's). */
export function minuteChoices(...also: (number | null | undefined)[]): number[] {
  const extra = also.filter((m): m is number => validMinutes(m) && !VISIT_MINUTES.includes(m));
  return [...new Set([...VISIT_MINUTES, ...extra])].sort((a, b) => a - b);
}
