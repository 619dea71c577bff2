import { activityListQuery, recordEntrySchema } from './activity.schema';

const firstIssue = (r: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  r.success ? 'accepted' : [r.error!.issues[0].path.join('.'), r.error!.issues[0].message];

const valid = { userId: 4, username: 'wendy', type: 'start_shift', details: 'Started shift at Depot', location: 'Depot' };

describe('recordEntrySchema', () => {
  it("takes the spec's body, trimmed, with the userId also as a numeric string", () => {
    expect(recordEntrySchema.parse({ ...valid, details: '  Started shift at Depot ', userId: '4' })).toEqual(valid);
  });

  it('treats an empty or null location as none', () => {
    expect(recordEntrySchema.parse({ ...valid, location: '  ' }).location).toBeUndefined();
    expect(recordEntrySchema.parse({ ...valid, location: null }).location).toBeUndefined();
  });

  it.each([
    ['a zero userId', { ...valid, userId: 0 }, ['userId', 'Invalid user ID']],
    ['a userId that is not a number', { ...valid, userId: 'me' }, ['userId', 'Invalid user ID']],
    ['a missing userId', { ...valid, userId: undefined }, ['userId', 'Invalid user ID']],
    [
      'a type the spec does not name',
      { ...valid, type: 'shift_started' },
      ['type', 'type must be one of check_in, emergency, missed_check_in, start_shift, end_shift, sms_sent, call_made, system_alert'],
    ],
    [
      'a missing type',
      { ...valid, type: undefined },
      ['type', 'type must be one of check_in, emergency, missed_check_in, start_shift, end_shift, sms_sent, call_made, system_alert'],
    ],
    ['missing details', { ...valid, details: undefined }, ['details', 'details is required']],
    ['blank details', { ...valid, details: '   ' }, ['details', 'details is required']],
    ['details over 1000 characters', { ...valid, details: 'x'.repeat(1001) }, ['details', 'details must be at most 1000 characters']],
    ['details that are not text', { ...valid, details: 42 }, ['details', 'details must be text']],
    ['a location over 100 characters', { ...valid, location: 'x'.repeat(101) }, ['location', 'location must be at most 100 characters']],
    ['a username that is not text', { ...valid, username: 7 }, ['username', 'username must be text']],
    ['an unknown field', { ...valid, timestamp: '2030-01-01T00:00:00Z' }, ['', 'Unknown field: timestamp']],
  ])('refuses %s, naming the field', (_what, body, issue) => {
    expect(firstIssue(recordEntrySchema.safeParse(body))).toEqual(issue);
  });

  it('accepts details of exactly 1000 characters', () => {
    expect(firstIssue(recordEntrySchema.safeParse({ ...valid, details: 'x'.repeat(1000) }))).toBe('accepted');
  });
});

describe('activityListQuery', () => {
  it('reads userId and limit from the query string and ignores cache busters', () => {
    expect(activityListQuery.parse({ userId: '12', limit: '20', cursor: 'abc', _t: '123' })).toEqual({
      userId: 12,
      limit: 20,
      cursor: 'abc',
    });
    expect(activityListQuery.parse({})).toEqual({});
  });

  it.each([
    [{ userId: '0' }, ['userId', 'Invalid user ID']],
    [{ userId: 'abc' }, ['userId', 'Invalid user ID']],
    [{ limit: '0' }, ['limit', 'limit must be a whole number from 1 to 200']],
    [{ limit: '201' }, ['limit', 'limit must be a whole number from 1 to 200']],
    [{ limit: 'ten' }, ['limit', 'limit must be a whole number from 1 to 200']],
    [{ cursor: '' }, ['cursor', 'Invalid cursor']],
  ])('refuses %p naming the parameter', (query, issue) => {
    expect(firstIssue(activityListQuery.safeParse(query))).toEqual(issue);
  });
});
