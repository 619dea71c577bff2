import { msg } from '../i18n/i18n';

// A team's resolved on-call timeline as the gateway answers it (GET /api/teams/{id}/on-call and
// .../on-call/timeline), read the same way by the monitors' dashboard and the rota editor.

/** One stretch of one person on call. */
export interface OnCallSlot {
  userId: number;
  name: string;
  /** The layer's index (0: the first). */
  layer: number;
  layerName: string;
  start: string;
  end: string;
  /** override: an override put them there; deputy: standing in for `forUserId`, who is away. */
  via?: 'override' | 'deputy';
  forUserId?: number;
}

export interface OnCallGap {
  start: string;
  end: string;
}

/** GET /api/teams/{id}/on-call/timeline. */
export interface OnCallTimeline {
  hasRota: boolean;
  timeZone: string;
  layers: { name: string; slots: OnCallSlot[] }[];
  /** Who is actually on call, moment by moment. */
  final: OnCallSlot[];
  gaps: OnCallGap[];
}

type Fields = Record<string, unknown>;
const record = (v: unknown): Fields | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : null);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** An instant the screen can compute with, or null: an unparseable time must not pass as one. */
const instant = (v: unknown): string | null => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? v : null);
const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** A slot, or null when it does not say who and from when to when (it is then left out). */
export function parseOnCallSlot(value: unknown): OnCallSlot | null {
  const v = record(value);
  const start = instant(v?.start);
  const end = instant(v?.end);
  if (!v || !whole(v.userId) || typeof v.name !== 'string' || !start || !end) return null;
  return {
    userId: v.userId,
    name: v.name,
    layer: whole(v.layer) ? v.layer : 0,
    layerName: typeof v.layerName === 'string' ? v.layerName : '',
    start,
    end,
    ...(v.via === 'override' || v.via === 'deputy' ? { via: v.via } : {}),
    ...(whole(v.forUserId) ? { forUserId: v.forUserId } : {}),
  };
}

const slots = (v: unknown): OnCallSlot[] => list(v).flatMap((s) => parseOnCallSlot(s) ?? []);

export function parseOnCallTimeline(body: unknown): OnCallTimeline {
  const v = record(body);
  if (!v || typeof v.hasRota !== 'boolean') throw new Error(msg('Invalid response format from server'));
  return {
    hasRota: v.hasRota,
    timeZone: typeof v.timeZone === 'string' && v.timeZone ? v.timeZone : 'Europe/London',
    layers: list(v.layers).flatMap((l) => {
      const layer = record(l);
      return layer ? [{ name: typeof layer.name === 'string' ? layer.name : '', slots: slots(layer.slots) }] : [];
    }),
    final: slots(v.final),
    gaps: list(v.gaps).flatMap((g) => {
      const gap = record(g);
      const start = instant(gap?.start);
      const end = instant(gap?.end);
      return start && end ? [{ start, end }] : [];
    }),
  };
}
