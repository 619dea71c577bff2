import { describe, expect, it } from '@jest/globals';
import * as schemas from '@lws/schemas';
import {
  VISIT_DEFAULT_MINUTES,
  VISIT_MAX_MINUTES,
  VISIT_MINUTES,
  VISIT_MIN_MINUTES,
  VISIT_NOTE_MAX,
  VISIT_WHERE_MAX,
  minuteChoices,
  parseVisitTypes,
  startVisitBody,
  visitProblems,
  type VisitFormValues,
} from './visit-rules';

/** The schema's first message for each field, as `visitProblems` gives them. */
function schemaProblems(values: VisitFormValues): Record<string, string> {
  const parsed = schemas.startVisitSchema.safeParse(values);
  const found: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
  return found;
}

describe("the worker's check of a visit, written out without zod", () => {
  it('keeps the limits and the lengths of the server schema', () => {
    expect({ VISIT_MIN_MINUTES, VISIT_MAX_MINUTES, VISIT_DEFAULT_MINUTES, VISIT_WHERE_MAX, VISIT_NOTE_MAX }).toEqual({
      VISIT_MIN_MINUTES: schemas.VISIT_MIN_MINUTES,
      VISIT_MAX_MINUTES: schemas.VISIT_MAX_MINUTES,
      VISIT_DEFAULT_MINUTES: schemas.VISIT_DEFAULT_MINUTES,
      VISIT_WHERE_MAX: schemas.VISIT_WHERE_MAX,
      VISIT_NOTE_MAX: schemas.VISIT_NOTE_MAX,
    });
    expect(VISIT_MINUTES).toEqual([...schemas.VISIT_MINUTES]);
  });

  const ok: VisitFormValues = { where: '12 Oak Street', minutes: 30, note: '' };
  it.each<[string, Partial<VisitFormValues>]>([
    ['a good visit', {}],
    ['an empty place', { where: '' }],
    ['a place of spaces', { where: '   ' }],
    ['a place padded with spaces', { where: '  Flat 3  ' }],
    ['a place of 200 characters', { where: 'x'.repeat(200) }],
    ['a place of 201 characters', { where: 'x'.repeat(201) }],
    ['a place padded to 202 characters', { where: ` ${'x'.repeat(200)} ` }],
    ['a place on two lines', { where: 'Flat 3\nOak Street' }],
    ['a place with a tab', { where: 'Flat 3\tOak Street' }],
    ['a place with a right-to-left override', { where: 'Flat \u202e3' }],
    ['a place too long and disguised', { where: `\u0007${'x'.repeat(201)}` }],
    ['4 minutes', { minutes: 4 }],
    ['5 minutes', { minutes: 5 }],
    ['240 minutes', { minutes: 240 }],
    ['241 minutes', { minutes: 241 }],
    ['a fraction of a minute', { minutes: 30.5 }],
    ['no number of minutes', { minutes: Number.NaN }],
    ['a note on several lines', { note: 'Flat 3\nclient known to be aggressive\tdog' }],
    ['a note of 1000 characters', { note: 'n'.repeat(1000) }],
    ['a note of 1001 characters', { note: 'n'.repeat(1001) }],
    ['a note with a control character', { note: 'dog\u0000' }],
    ['a note of spaces', { note: '   ' }],
    ['everything wrong', { where: '', minutes: 0, note: 'n'.repeat(1001) }],
  ])('gives the server schema’s answer for %s', (_what, change) => {
    const values = { ...ok, ...change };
    expect(visitProblems(values)).toEqual(schemaProblems(values));
  });

  it('sends what the schema would make of the form, and the type only when one is chosen', () => {
    const values = { where: '  Flat 3, Oak Street ', minutes: 45, note: '  dog \n' };
    const { visitTypeId, ...body } = startVisitBody(values, 'high-risk');
    expect(visitTypeId).toBe('high-risk');
    expect(body).toEqual(schemas.startVisitSchema.parse(values));
    expect(startVisitBody({ ...values, note: ' ' }, null)).toEqual({ where: 'Flat 3, Oak Street', minutes: 45 });
  });
});

describe('parseVisitTypes', () => {
  it('reads the types of the team, and none when it has none or says nothing', () => {
    expect(
      parseVisitTypes({
        visitTypes: [
          { id: 'hv', name: 'Home visit, high risk', minutes: 20, checkInInterval: 10, smsToo: true },
          { id: 'night', name: ' Night call ', minutes: 999, checkInInterval: null, smsToo: false },
        ],
      }),
    ).toEqual([
      { id: 'hv', name: 'Home visit, high risk', minutes: 20, checkInInterval: 10, smsToo: true },
      { id: 'night', name: 'Night call', minutes: null, checkInInterval: null, smsToo: false },
    ]);
    expect(parseVisitTypes({ visitTypes: [] })).toEqual([]);
    expect(parseVisitTypes({ name: 'Team A' })).toEqual([]);
    expect(parseVisitTypes(null)).toEqual([]);
    expect(parseVisitTypes({ visitTypes: 'none' })).toEqual([]);
  });

  it('leaves out a type without an id or a name, and a second of the same id', () => {
    expect(
      parseVisitTypes({
        visitTypes: [null, { name: 'No id', minutes: 20 }, { id: 'a', name: '' }, { id: 'a', name: 'First' }, { id: 'a', name: 'Again' }],
      }).map((type) => type.name),
    ).toEqual(['First']);
  });
});

describe('minuteChoices', () => {
  it("offers the presets, and a visit type's own length among them", () => {
    expect(minuteChoices(30)).toEqual([15, 30, 45, 60, 90, 120]);
    expect(minuteChoices(30, 20)).toEqual([15, 20, 30, 45, 60, 90, 120]);
    expect(minuteChoices(200, null)).toEqual([15, 30, 45, 60, 90, 120, 200]);
    expect(minuteChoices(500)).toEqual([15, 30, 45, 60, 90, 120]);
  });
});
