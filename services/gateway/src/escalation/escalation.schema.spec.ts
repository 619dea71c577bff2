import { BadRequestException } from '@nestjs/common';
import { AlarmIdPipe, alarmListQuery, resolveAlarmSchema, simulateTimeSchema } from './escalation.schema';

const firstIssue = (r: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  r.success ? 'accepted' : [r.error!.issues[0].path.join('.'), r.error!.issues[0].message];

describe('alarmListQuery', () => {
  it('lists open alarms unless open=false, with limit and cursor passed on', () => {
    expect(alarmListQuery.parse({})).toEqual({ open: true });
    expect(alarmListQuery.parse({ open: 'true', limit: '500', cursor: 'abc' })).toEqual({ open: true, limit: 500, cursor: 'abc' });
    expect(alarmListQuery.parse({ open: 'false', limit: '1' })).toEqual({ open: false, limit: 1 });
  });

  it.each([['0'], ['501'], ['-1'], ['1.5'], ['ten']])('refuses limit=%s', (limit) => {
    expect(firstIssue(alarmListQuery.safeParse({ limit }))).toEqual(['limit', 'limit must be a whole number from 1 to 500']);
  });

  it('refuses an open flag other than true or false, and an empty or overlong cursor', () => {
    expect(firstIssue(alarmListQuery.safeParse({ open: 'yes' }))).toEqual(['open', "open must be 'true' or 'false'"]);
    expect(firstIssue(alarmListQuery.safeParse({ cursor: '' }))).toEqual(['cursor', 'Invalid cursor']);
    expect(firstIssue(alarmListQuery.safeParse({ cursor: 'x'.repeat(201) }))).toEqual(['cursor', 'Invalid cursor']);
  });
});

describe('resolveAlarmSchema', () => {
  it('takes an outcome with its detail and a trimmed note of up to 2000 characters', () => {
    expect(resolveAlarmSchema.parse({ verdict: 'genuine', severity: 'minor', note: '  Called her, she fell  ' })).toEqual({
      verdict: 'genuine',
      severity: 'minor',
      note: 'Called her, she fell',
    });
    expect(firstIssue(resolveAlarmSchema.safeParse({ verdict: 'false_alarm', reason: 'device', note: 'x'.repeat(2000) }))).toBe('accepted');
    expect(firstIssue(resolveAlarmSchema.safeParse({ verdict: 'test', note: 'drill' }))).toBe('accepted');
  });

  it.each([[{}], [{ verdict: 'maybe', note: 'n' }], [{ verdict: 'Genuine', note: 'n' }], [{ verdict: null, note: 'n' }]])(
    'names verdict: %p',
    (body) => {
      expect(firstIssue(resolveAlarmSchema.safeParse(body))).toEqual([
        'verdict',
        'Choose whether the alarm was genuine, a false alarm or a test',
      ]);
    },
  );

  it.each([
    [{ verdict: 'genuine', note: 'n' }, 'severity', 'Choose how serious the incident was'],
    [{ verdict: 'genuine', severity: 'fatal', note: 'n' }, 'severity', 'Choose how serious the incident was'],
    [{ verdict: 'false_alarm', note: 'n' }, 'reason', 'Choose why the alarm was false'],
    [{ verdict: 'false_alarm', reason: 'no_signal ', note: 'n' }, 'reason', 'Choose why the alarm was false'],
  ])('names the outcome detail: %p', (body, field, message) => {
    expect(firstIssue(resolveAlarmSchema.safeParse(body))).toEqual([field, message]);
  });

  it.each([[undefined], [''], ['   '], [42]])('requires a note: %p', (note) => {
    expect(firstIssue(resolveAlarmSchema.safeParse({ verdict: 'test', note }))).toEqual([
      'note',
      'Please write a note on how the alarm was resolved',
    ]);
  });

  it('refuses a note over 2000 characters', () => {
    expect(firstIssue(resolveAlarmSchema.safeParse({ verdict: 'test', note: 'x'.repeat(2001) }))).toEqual([
      'note',
      'The note must be at most 2000 characters',
    ]);
  });
});

describe('simulateTimeSchema', () => {
  it('takes 0 to 1440 minutes, fractions and numeric strings included', () => {
    for (const [input, minutes] of [
      [0, 0],
      [1440, 1440],
      [2.5, 2.5],
      ['15', 15],
      [' 7.25 ', 7.25],
    ] as const) {
      expect(simulateTimeSchema.parse({ minutesUntilDue: input })).toEqual({ minutesUntilDue: minutes });
    }
  });

  it.each([[undefined], [-1], [1440.5], ['abc'], [''], [null], [Infinity], [true]])(
    'refuses %p, naming minutesUntilDue',
    (minutesUntilDue) => {
      expect(firstIssue(simulateTimeSchema.safeParse({ minutesUntilDue }))).toEqual([
        'minutesUntilDue',
        'minutesUntilDue must be a number of minutes from 0 to 1440',
      ]);
    },
  );
});

describe('AlarmIdPipe', () => {
  const pipe = new AlarmIdPipe();

  it('passes a uuid on, in lower case', () => {
    expect(pipe.transform('3F2504E0-4F89-41D3-9A0C-0305E82C3301')).toBe('3f2504e0-4f89-41d3-9a0c-0305e82c3301');
  });

  it.each([['1'], ['undefined'], ['3f2504e0-4f89-41d3-9a0c-0305e82c330'], ["3f2504e0-4f89-41d3-9a0c-0305e82c3301' or 1=1"]])(
    'refuses %p with a 400 naming id',
    (id) => {
      expect(() => pipe.transform(id)).toThrow(BadRequestException);
      try {
        pipe.transform(id);
      } catch (err) {
        expect((err as BadRequestException).getResponse()).toEqual({ message: 'Invalid alarm ID', field: 'id' });
      }
    },
  );
});
