import { useState, type PointerEvent } from 'react';
import { useT, type Translate } from '@lws/fe-ui';
import type { OnCallSlot, OnCallTimeline } from './teams-api';
import { dayLabel, zoneMidnights, zoneStamp } from '@lws/fe-ui';

/** Distinct on white, none of them the gaps' amber (Okabe-Ito's and Tableau's, less yellow and orange). */
export const PERSON_COLOURS = [
  '#0072B2',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#7B3294',
  '#D55E00',
  '#1B7837',
  '#6B7280',
  '#8C564B',
  '#17BECF',
];
const GAP_FILL = '#fef3c7';
const GAP_STROKE = '#92400e';

// The picture's own units: it is drawn to a viewBox and scales to the width it is given.
const WIDTH = 1000;
const LABEL_WIDTH = 120;
const RIGHT = 8;
const TOP = 26;
const ROW = 30;
const ROW_GAP = 8;
const PLOT = WIDTH - LABEL_WIDTH - RIGHT;

export interface OnCallTimelineProps {
  timeline: OnCallTimeline;
  /** The range drawn, in ms. */
  from: number;
  to: number;
  /** A drag across a layer's row: that layer, from and to (ms, in time order). */
  onPick?: (layer: number, from: number, to: number) => void;
}

/** One colour per person, in the order they first appear. */
export function personColours(timeline: OnCallTimeline): Map<number, { name: string; colour: string }> {
  const people = new Map<number, { name: string; colour: string }>();
  for (const slot of [...timeline.layers.flatMap((l) => l.slots), ...timeline.final]) {
    if (!people.has(slot.userId)) {
      people.set(slot.userId, { name: slot.name, colour: PERSON_COLOURS[people.size % PERSON_COLOURS.length] });
    }
  }
  return people;
}

/** "Nina North, Mon 7 Dec 20:00 – Tue 8 Dec 08:00", with why when an override or a deputy put them there. */
export function slotTitle(slot: OnCallSlot, zone: string, t: Translate, nameOf: (id: number) => string): string {
  const when = t('{{name}}, {{from}} – {{to}}', {
    name: slot.name,
    from: zoneStamp(slot.start, zone, t),
    to: zoneStamp(slot.end, zone, t),
  });
  if (slot.via === 'override') return t('{{stretch}} (override)', { stretch: when });
  if (slot.via === 'deputy' && slot.forUserId !== undefined)
    return t('{{stretch}} (deputy for {{name}}, who is away)', { stretch: when, name: nameOf(slot.forUserId) });
  return when;
}

/**
 * Two weeks of a team's rota as a picture: a row per layer and the final row (who is actually on
 * call), each stretch a bar in its person's colour, the final row's gaps in amber; the day ticks
 * are midnights in the rota's zone. Dragging across a layer's row picks a stretch for an override.
 */
export function OnCallTimelinePicture({ timeline, from, to, onPick }: OnCallTimelineProps) {
  const t = useT();
  const [drag, setDrag] = useState<{ layer: number; a: number; b: number } | null>(null);
  const zone = timeline.timeZone;
  const span = Math.max(1, to - from);
  const x = (at: string | number) => {
    const ms = typeof at === 'number' ? at : Date.parse(at);
    return LABEL_WIDTH + (Math.min(Math.max(ms - from, 0), span) / span) * PLOT;
  };
  const rows = [...timeline.layers.map((l) => ({ name: l.name, slots: l.slots })), { name: t('Final'), slots: timeline.final }];
  const rowY = (i: number) => TOP + i * (ROW + ROW_GAP);
  const height = rowY(rows.length) + 2;
  const finalRow = rows.length - 1;
  const people = personColours(timeline);
  const nameOf = (id: number) => people.get(id)?.name ?? `#${id}`;
  const ticks = zoneMidnights(from, to, zone);

  /** Where the pointer is: along the plot, 0 to 1, and on which row; null when the picture has no size (not laid out). */
  const pointAt = (event: PointerEvent<SVGSVGElement>): { f: number; row: number } | null => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) return null;
    const across = ((event.clientX - box.left) / box.width) * WIDTH;
    const down = ((event.clientY - box.top) / box.height) * height;
    const row = Math.floor((down - TOP) / (ROW + ROW_GAP));
    const inRow = down - rowY(row) <= ROW;
    return { f: Math.min(Math.max((across - LABEL_WIDTH) / PLOT, 0), 1), row: inRow ? row : -1 };
  };
  const endDrag = () => {
    if (drag && onPick && Math.abs(drag.b - drag.a) * span >= 30 * 60_000) {
      const round = (f: number) => Math.round((from + f * span) / 1_800_000) * 1_800_000;
      onPick(drag.layer, round(Math.min(drag.a, drag.b)), round(Math.max(drag.a, drag.b)));
    }
    setDrag(null);
  };

  return (
    <svg
      data-testid="on-call-timeline"
      role="img"
      aria-label={
        timeline.gaps.length === 0
          ? t('On-call timeline for the next 14 days: someone is on call throughout')
          : t('On-call timeline for the next 14 days: {{count}} stretches with nobody on call', { count: timeline.gaps.length })
      }
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      style={{ display: 'block', maxWidth: '100%', height: 'auto', touchAction: onPick ? 'pan-y' : undefined }}
      fontSize={12}
      onPointerDown={(e) => {
        const at = onPick ? pointAt(e) : null;
        if (!at || at.row < 0 || at.row >= finalRow) return;
        e.currentTarget.setPointerCapture?.(e.pointerId);
        setDrag({ layer: at.row, a: at.f, b: at.f });
      }}
      onPointerMove={(e) => {
        const at = drag ? pointAt(e) : null;
        if (drag && at) setDrag({ ...drag, b: at.f });
      }}
      onPointerUp={endDrag}
      onPointerLeave={() => setDrag(null)}
    >
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row is its layer's position, the index the server's slots name.
        <g key={`${i}-${row.name}`} data-testid="on-call-row" data-layer={i === finalRow ? 'final' : i}>
          <text x={0} y={rowY(i) + ROW / 2 + 4} fill="#111827" fontWeight={i === finalRow ? 700 : 400}>
            {row.name.length > 16 ? `${row.name.slice(0, 15)}…` : row.name}
          </text>
          <rect
            x={LABEL_WIDTH}
            y={rowY(i)}
            width={PLOT}
            height={ROW}
            fill="#f3f4f6"
            style={onPick && i !== finalRow ? { cursor: 'crosshair' } : undefined}
          />
        </g>
      ))}
      {ticks.map((tick) => (
        <g key={tick} data-testid="on-call-day" pointerEvents="none">
          <line x1={x(tick)} x2={x(tick)} y1={TOP - 6} y2={height} stroke="#9ca3af" strokeWidth={0.75} />
          <text x={x(tick) + 3} y={TOP - 10} fill="#4b5563">
            {dayLabel(tick, zone, t)}
          </text>
        </g>
      ))}
      {rows.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a row is its layer's position, the index the server's slots name.
        <g key={`${i}-${row.name}`} style={onPick && i !== finalRow ? { cursor: 'crosshair' } : undefined}>
          {row.slots.map((slot) => (
            <rect
              key={`${slot.userId}-${slot.start}`}
              data-testid="on-call-slot"
              data-layer={i === finalRow ? 'final' : i}
              data-user-id={slot.userId}
              x={x(slot.start)}
              y={rowY(i) + 3}
              width={Math.max(1, x(slot.end) - x(slot.start))}
              height={ROW - 6}
              rx={3}
              fill={people.get(slot.userId)?.colour ?? PERSON_COLOURS[0]}
              stroke={slot.via ? '#111827' : 'none'}
              strokeDasharray={slot.via ? '4 2' : undefined}
            >
              <title>{slotTitle(slot, zone, t, nameOf)}</title>
            </rect>
          ))}
          {i === finalRow
            ? timeline.gaps.map((gap) => {
                const width = Math.max(1, x(gap.end) - x(gap.start));
                return (
                  <g key={gap.start}>
                    <rect
                      data-testid="on-call-gap"
                      x={x(gap.start)}
                      y={rowY(i) + 1}
                      width={width}
                      height={ROW - 2}
                      fill={GAP_FILL}
                      stroke={GAP_STROKE}
                      strokeWidth={1.5}
                    >
                      <title>
                        {t('Nobody on call, {{from}} – {{to}}', { from: zoneStamp(gap.start, zone, t), to: zoneStamp(gap.end, zone, t) })}
                      </title>
                    </rect>
                    {width >= 30 ? (
                      <text x={x(gap.start) + 4} y={rowY(i) + ROW / 2 + 4} fill={GAP_STROKE} fontWeight={700} pointerEvents="none">
                        {width >= 100 ? t('Nobody on call') : t('Gap')}
                      </text>
                    ) : null}
                  </g>
                );
              })
            : null}
        </g>
      ))}
      {drag ? (
        <rect
          data-testid="on-call-pick"
          x={LABEL_WIDTH + Math.min(drag.a, drag.b) * PLOT}
          y={rowY(drag.layer)}
          width={Math.abs(drag.b - drag.a) * PLOT}
          height={ROW}
          fill="#1d4ed8"
          fillOpacity={0.25}
          stroke="#1d4ed8"
          pointerEvents="none"
        />
      ) : null}
    </svg>
  );
}
