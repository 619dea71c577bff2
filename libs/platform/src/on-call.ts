/**
 * A team's on-call schedule and the timeline it resolves to: who is on call when. Layers are in
 * priority order: at any moment the first layer with someone on call is "on call", the next layer
 * with someone else is "next". Computed with Luxon in the schedule's time zone, so a rotation's
 * hand-off stays at its wall-clock time across daylight-saving changes.
 */

import { DateTime, IANAZone } from 'luxon';

/** 1 = Monday … 7 = Sunday (ISO, as Luxon numbers them). */
export type Weekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** Restricted hours: a layer covers only these windows, each from `from` to `to` local time on each of `days`. */
export interface OnCallWindow {
  days: Weekday[];
  /** 'HH:mm', local time. */
  from: string;
  /** 'HH:mm', local time; at or before `from`: the next day (20:00 to 08:00 is a night). */
  to: string;
}

export interface OnCallLayer {
  name: string;
  /** When the first turn begins, local wall time in the schedule's zone ('2026-11-30T08:00'); its time of day is the hand-off time. */
  start: string;
  rotation: 'daily' | 'weekly' | 'custom';
  /** custom: each turn's length in days (1 to 28). */
  turnDays?: number;
  /** Whose turn it is, in order; the order repeats. */
  userIds: number[];
  /** Restricted hours; absent or empty: the layer covers all the time. */
  windows?: OnCallWindow[];
}

/** Someone covers a layer from `start` to `end` (instants, ISO 8601), in place of whoever's turn it is, restricted hours or not. */
export interface OnCallOverride {
  id: string;
  /** The layer's index in `layers` (0: the first). */
  layer: number;
  userId: number;
  start: string;
  end: string;
}

export interface OnCallSchedule {
  /** IANA zone the layers' times are read in (Europe/London by default). */
  timeZone: string;
  layers: OnCallLayer[];
  overrides: OnCallOverride[];
}

/** What the timeline needs to know of people: who is away until when, and whose deputy stands in for them. */
export interface OnCallPeople {
  /** Away until then (for every moment before it): their slot goes to their deputy, or is a gap. */
  awayUntil(userId: number): Date | undefined;
  /** The team's deputy for this monitor, if any. */
  deputyOf(userId: number): number | undefined;
}

/** One stretch of one person on call. */
export interface OnCallSegment {
  start: Date;
  end: Date;
  userId: number;
  /** The layer's index. */
  layer: number;
  /** override: an override put them there; deputy: standing in for `forUserId`, who is away. */
  via?: 'override' | 'deputy';
  forUserId?: number;
}

export interface OnCallGap {
  start: Date;
  end: Date;
}

/** The longest range one call may ask about: two months, so the work stays small whatever the schedule. */
export const MAX_ON_CALL_RANGE_DAYS = 62;

/** How far `onCallAt` looks either side of its moment, so a stretch's start and end are its true ones. */
const LOOK_AROUND_DAYS = 31;

/** What `onCallAt` answers: who is on call now, who is next in line now, and who takes over from `now`. */
export interface OnCallAnswer {
  now?: OnCallSegment;
  next?: OnCallSegment;
  /** Who takes over when `now` ends. */
  after?: OnCallSegment;
}

/** The resolved timeline of a range: each layer's own segments, who is actually on call, and when no one is. */
export interface OnCallTimeline {
  layers: OnCallSegment[][];
  final: OnCallSegment[];
  gaps: OnCallGap[];
}

/** A stretch of time, [start, end), as epoch milliseconds: instants only, never wall-clock arithmetic. */
interface Span {
  start: number;
  end: number;
}

/** One person on call in one layer, before it is handed out as an OnCallSegment. */
interface Piece extends Span {
  userId: number;
  layer: number;
  via?: 'override' | 'deputy';
  forUserId?: number;
}

/** A local time of day, as read from 'HH:mm'. */
interface TimeOfDay {
  hour: number;
  minute: number;
}

/** Refuses a range that is not two valid dates in order, or is longer than MAX_ON_CALL_RANGE_DAYS. */
function checkRange(from: Date, to: Date): Span {
  const start = DateTime.fromJSDate(from, { zone: 'utc' });
  const end = DateTime.fromJSDate(to, { zone: 'utc' });
  if (!start.isValid || !end.isValid) throw new RangeError('on-call range: from and to must be valid dates');
  if (end < start) throw new RangeError('on-call range: to is before from');
  // In UTC a day is always 24 hours, so this is the same limit whatever the schedule's zone.
  if (end > start.plus({ days: MAX_ON_CALL_RANGE_DAYS })) {
    throw new RangeError(`on-call range: longer than ${MAX_ON_CALL_RANGE_DAYS} days`);
  }
  return { start: start.toMillis(), end: end.toMillis() };
}

/** The schedule's zone, refused when it is not a known IANA zone (a typo would silently mean UTC otherwise). */
function zoneOf(schedule: OnCallSchedule): string {
  if (!IANAZone.isValidZone(schedule.timeZone)) {
    throw new RangeError(`on-call schedule: unknown time zone '${schedule.timeZone}'`);
  }
  return schedule.timeZone;
}

/** When the layer's first turn begins, read as a wall time in the zone; refused when it is no real date-time. */
function firstTurnStart(layer: OnCallLayer, zone: string): DateTime {
  const start = DateTime.fromISO(layer.start, { zone });
  if (!start.isValid) throw new RangeError(`on-call layer '${layer.name}': start '${layer.start}' is not a valid local date-time`);
  return start;
}

/** A turn's length in calendar days; a custom length outside 1 to 28 whole days is refused. */
function turnLength(layer: OnCallLayer): number {
  if (layer.rotation === 'daily') return 1;
  if (layer.rotation === 'weekly') return 7;
  const days = layer.turnDays;
  if (days === undefined || !Number.isInteger(days) || days < 1 || days > 28) {
    throw new RangeError(`on-call layer '${layer.name}': turnDays must be a whole number from 1 to 28`);
  }
  return days;
}

/** Reads 'HH:mm' (00:00 to 23:59); anything else is refused rather than guessed at. */
function timeOfDay(text: string): TimeOfDay {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  if (!match) throw new RangeError(`on-call window: '${text}' is not a time of day (HH:mm)`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** Whether a piece of time has any length left. */
function isEmpty(span: Span): boolean {
  return span.end <= span.start;
}

/** The part of `piece` inside `span`, keeping who and why. */
function clip<T extends Span>(piece: T, span: Span): T {
  return { ...piece, start: Math.max(piece.start, span.start), end: Math.min(piece.end, span.end) };
}

/** Joins overlapping or touching spans, so a union of windows is a sorted list of separate spans. */
function union(spans: Span[]): Span[] {
  const sorted = [...spans].filter((s) => !isEmpty(s)).sort((a, b) => a.start - b.start);
  const joined: Span[] = [];
  for (const span of sorted) {
    const last = joined[joined.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else joined.push({ ...span });
  }
  return joined;
}

/** The parts of each piece that fall inside the (sorted, separate) spans. */
function intersect<T extends Span>(pieces: T[], spans: Span[]): T[] {
  return pieces.flatMap((piece) => spans.map((span) => clip(piece, span)).filter((p) => !isEmpty(p)));
}

/** The parts of each piece outside `cut`: at most two per piece, before and after it. */
function subtract<T extends Span>(pieces: T[], cut: Span): T[] {
  return pieces.flatMap((piece) =>
    [
      { ...piece, end: Math.min(piece.end, cut.start) },
      { ...piece, start: Math.max(piece.start, cut.end) },
    ].filter((p) => !isEmpty(p)),
  );
}

/** Whether two pieces say the same thing (same person, layer and reason), so that touching ones can be one. */
function samePerson(a: Piece, b: Piece): boolean {
  return a.userId === b.userId && a.layer === b.layer && a.via === b.via && a.forUserId === b.forUserId;
}

/** Sorts pieces and joins touching ones that say the same thing. The pieces must not overlap. */
function merge(pieces: Piece[]): Piece[] {
  const sorted = pieces.filter((p) => !isEmpty(p)).sort((a, b) => a.start - b.start);
  const merged: Piece[] = [];
  for (const piece of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.end === piece.start && samePerson(last, piece)) last.end = piece.end;
    else merged.push({ ...piece });
  }
  return merged;
}

/**
 * The layer's turns that touch `range`. Turn k begins k turn lengths after the first, added as
 * calendar days in the zone so the hand-off keeps its wall-clock time across daylight-saving changes.
 * The first turn to look at is found from the number of calendar days since the first turn, not by
 * walking from it, so a rotation that began years ago costs the same as one that began last week.
 */
function turnPieces(layer: OnCallLayer, index: number, zone: string, range: Span): Piece[] {
  const first = firstTurnStart(layer, zone);
  const length = turnLength(layer);
  if (layer.userIds.length === 0) return [];
  const fromDay = DateTime.fromMillis(range.start, { zone }).startOf('day');
  const daysSince = Math.round(fromDay.diff(first.startOf('day'), 'days').days);
  // The turn that began on or before from's day; one earlier when from is before that day's hand-off.
  let turn = Math.max(0, Math.floor(daysSince / length) - 1);
  const pieces: Piece[] = [];
  let turnStart = first.plus({ days: turn * length });
  while (turnStart.toMillis() < range.end) {
    const turnEnd = first.plus({ days: (turn + 1) * length });
    if (turnEnd.toMillis() > range.start) {
      pieces.push({
        start: turnStart.toMillis(),
        end: turnEnd.toMillis(),
        userId: layer.userIds[turn % layer.userIds.length],
        layer: index,
      });
    }
    turn += 1;
    turnStart = turnEnd;
  }
  return pieces;
}

/**
 * The layer's restricted hours that touch `range`, as separate spans. Each window is laid out on each
 * local day from the day before `range` (a night that began then) to its last day, its ends set as
 * wall-clock times on that day, so a night across a daylight-saving change is 11 or 13 hours long.
 */
function windowSpans(windows: OnCallWindow[], zone: string, range: Span): Span[] {
  const firstDay = DateTime.fromMillis(range.start, { zone }).startOf('day').minus({ days: 1 });
  const lastDay = DateTime.fromMillis(range.end, { zone }).startOf('day');
  const read = windows.map((w) => {
    const from = timeOfDay(w.from);
    const to = timeOfDay(w.to);
    const overnight = to.hour * 60 + to.minute <= from.hour * 60 + from.minute;
    return { days: w.days, from, to, overnight };
  });
  const spans: Span[] = [];
  for (let i = 0; ; i += 1) {
    const day = firstDay.plus({ days: i });
    if (day > lastDay) break;
    for (const w of read) {
      if (!w.days.some((weekday) => weekday === day.weekday)) continue;
      const start = day.set(w.from);
      const end = (w.overnight ? day.plus({ days: 1 }) : day).set(w.to);
      spans.push({ start: start.toMillis(), end: end.toMillis() });
    }
  }
  return union(spans);
}

/**
 * Puts each override of this layer in place of whatever was there, in array order, so where two
 * overlap the later one wins. Overrides count whether or not the layer's windows cover them. An
 * override whose instants cannot be read, or that ends before it starts, is passed over.
 */
function applyOverrides(pieces: Piece[], overrides: OnCallOverride[], index: number, zone: string): Piece[] {
  let result = pieces;
  for (const override of overrides) {
    if (override.layer !== index) continue;
    const start = DateTime.fromISO(override.start, { zone });
    const end = DateTime.fromISO(override.end, { zone });
    if (!start.isValid || !end.isValid || end <= start) continue;
    const span = { start: start.toMillis(), end: end.toMillis() };
    result = [...subtract(result, span), { ...span, userId: override.userId, layer: index, via: 'override' }];
  }
  return result;
}

/** The moment someone is back, as epoch ms, or undefined when they are not away. */
function backAt(people: OnCallPeople, userId: number): number | undefined {
  const until = people.awayUntil(userId);
  return until === undefined ? undefined : until.getTime();
}

/**
 * Hands the part of a piece its person is away for to their deputy (if the deputy is not away then
 * too); what no one can take is left out, so it is a gap in this layer. Deputies are not chained.
 */
function standIn(piece: Piece, people: OnCallPeople): Piece[] {
  const back = backAt(people, piece.userId);
  if (back === undefined || back <= piece.start) return [piece];
  const present = { ...piece, start: Math.max(piece.start, back) };
  const away = { start: piece.start, end: Math.min(piece.end, back) };
  const deputy = people.deputyOf(piece.userId);
  if (deputy === undefined) return [present].filter((p) => !isEmpty(p));
  const deputyBack = backAt(people, deputy) ?? Number.NEGATIVE_INFINITY;
  const covered: Piece = {
    start: Math.max(away.start, deputyBack),
    end: away.end,
    userId: deputy,
    layer: piece.layer,
    via: 'deputy',
    forUserId: piece.userId,
  };
  return [covered, present].filter((p) => !isEmpty(p));
}

/** One layer's pieces over `range`: turns, within its windows, then overrides, then deputies; clipped and merged. */
function layerPieces(schedule: OnCallSchedule, index: number, zone: string, range: Span, people: OnCallPeople): Piece[] {
  const layer = schedule.layers[index];
  if (!layer) throw new RangeError(`on-call schedule: there is no layer ${index}`);
  const turns = turnPieces(layer, index, zone, range);
  const windows = layer.windows ?? [];
  const covered = windows.length > 0 ? intersect(turns, windowSpans(windows, zone, range)) : turns;
  const overridden = applyOverrides(covered, schedule.overrides, index, zone);
  const present = overridden.flatMap((piece) => standIn(piece, people));
  return merge(present.map((piece) => clip(piece, range)));
}

/**
 * Who is actually on call: each layer in turn fills the time the layers before it left empty, so at
 * each moment the first layer with someone on call wins. What is still empty at the end is the gaps.
 */
function resolve(layers: Piece[][], range: Span): { final: Piece[]; gaps: Span[] } {
  let free: Span[] = isEmpty(range) ? [] : [range];
  const final: Piece[] = [];
  for (const pieces of layers) {
    const taken = intersect(pieces, free);
    final.push(...taken);
    for (const piece of taken) free = subtract(free, piece);
  }
  return { final: merge(final), gaps: union(free) };
}

/** Everything over `range`, once the inputs are known to be good. */
function timelineOver(schedule: OnCallSchedule, range: Span, people: OnCallPeople): { layers: Piece[][]; final: Piece[]; gaps: Span[] } {
  const zone = zoneOf(schedule);
  const layers = schedule.layers.map((_, index) => layerPieces(schedule, index, zone, range, people));
  return { layers, ...resolve(layers, range) };
}

/** A piece as the segment callers see: Dates, and `via`/`forUserId` only when they say something. */
function toSegment(piece: Piece): OnCallSegment {
  const segment: OnCallSegment = { start: new Date(piece.start), end: new Date(piece.end), userId: piece.userId, layer: piece.layer };
  if (piece.via !== undefined) segment.via = piece.via;
  if (piece.forUserId !== undefined) segment.forUserId = piece.forUserId;
  return segment;
}

/** A span as a gap callers see. */
function toGap(span: Span): OnCallGap {
  return { start: new Date(span.start), end: new Date(span.end) };
}

/** Whether `piece` covers the moment `at` (epoch ms). */
function covers(piece: Span, at: number): boolean {
  return piece.start <= at && at < piece.end;
}

/**
 * Who is on call in one layer over [from, to): its turns, within its restricted hours if it has any,
 * with overrides in place and deputies standing in for people who are away. Sorted, non-overlapping,
 * with touching stretches of the same person (and reason) joined.
 * Throws a RangeError for a range over 62 days, an unknown zone, a bad layer start or layer index.
 */
export function layerTimeline(schedule: OnCallSchedule, layer: number, from: Date, to: Date, people: OnCallPeople): OnCallSegment[] {
  const range = checkRange(from, to);
  return layerPieces(schedule, layer, zoneOf(schedule), range, people).map(toSegment);
}

/**
 * The whole picture over [from, to): each layer's segments, who is actually on call (at each moment
 * the first layer with someone on call), and the gaps when no one is.
 * Throws a RangeError for a range over 62 days, an unknown zone or a bad layer start.
 */
export function onCallTimeline(schedule: OnCallSchedule, from: Date, to: Date, people: OnCallPeople): OnCallTimeline {
  const { layers, final, gaps } = timelineOver(schedule, checkRange(from, to), people);
  return { layers: layers.map((pieces) => pieces.map(toSegment)), final: final.map(toSegment), gaps: gaps.map(toGap) };
}

/**
 * Who is on call at `at` (`now`), who is next in line at that moment (the first later layer with
 * someone else), and who takes over when `now` ends (`after`). Looks 31 days either side, so a
 * stretch's start and end are its true ones unless it runs on beyond that.
 */
export function onCallAt(schedule: OnCallSchedule, at: Date, people: OnCallPeople): OnCallAnswer {
  const moment = DateTime.fromJSDate(at, { zone: 'utc' });
  if (!moment.isValid) throw new RangeError('on-call: at must be a valid date');
  const range = { start: moment.minus({ days: LOOK_AROUND_DAYS }).toMillis(), end: moment.plus({ days: LOOK_AROUND_DAYS }).toMillis() };
  const { layers, final } = timelineOver(schedule, range, people);
  const when = moment.toMillis();
  const now = final.find((piece) => covers(piece, when));
  if (!now) return {};
  const next = layers
    .slice(now.layer + 1)
    .map((pieces) => pieces.find((piece) => covers(piece, when) && piece.userId !== now.userId))
    .find((piece) => piece !== undefined);
  const after = final.find((piece) => piece.start === now.end);
  const answer: OnCallAnswer = { now: toSegment(now) };
  if (next) answer.next = toSegment(next);
  if (after) answer.after = toSegment(after);
  return answer;
}

/** When no one is on call over [from, to): the same as `onCallTimeline(...).gaps`. */
export function onCallGaps(schedule: OnCallSchedule, from: Date, to: Date, people: OnCallPeople): OnCallGap[] {
  return onCallTimeline(schedule, from, to, people).gaps;
}
