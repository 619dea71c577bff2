import { escapeText, fold, icalendar } from './icalendar';

describe('the on-call iCalendar feed', () => {
  const now = new Date('2026-12-01T09:00:00Z');

  it('writes a VCALENDAR of events in UTC, with CRLF line ends', () => {
    const text = icalendar(
      'On call: Nina North',
      [
        {
          uid: 'a@lws',
          start: new Date('2026-12-07T20:00:00Z'),
          end: new Date('2026-12-08T08:00:00Z'),
          summary: 'On call: North (Nights)',
        },
      ],
      now,
    );
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.split('\r\n')).toEqual([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//LWS//On-call rota//EN',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-CALNAME:On call: Nina North',
      'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
      'X-PUBLISHED-TTL:PT1H',
      'BEGIN:VEVENT',
      'UID:a@lws',
      'DTSTAMP:20261201T090000Z',
      'DTSTART:20261207T200000Z',
      'DTEND:20261208T080000Z',
      'SUMMARY:On call: North (Nights)',
      'TRANSP:OPAQUE',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ]);
  });

  it('escapes what TEXT values must, so a team named "North, East; West" stays one value', () => {
    expect(escapeText('North, East; West\\n\nnext')).toBe('North\\, East\\; West\\\\n\\nnext');
  });

  it('folds long lines at 75 octets, never inside a character', () => {
    const long = `SUMMARY:${'Ŵ'.repeat(60)}`;
    const folded = fold(long);
    const lines = folded.split('\r\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const [i, line] of lines.entries()) {
      expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
      if (i > 0) expect(line.startsWith(' ')).toBe(true);
    }
    // Unfolding gives the line back.
    expect(folded.replace(/\r\n /g, '')).toBe(long);
  });
});
