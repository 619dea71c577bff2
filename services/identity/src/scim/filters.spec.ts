import SCIMMY from 'scimmy';
import { PgDialect } from 'drizzle-orm/pg-core';
import { groupsNarrowing, matcher, usersNarrowing, withUserNameLowered } from './filters';

const dialect = new PgDialect();
const filter = (expression: string) => new SCIMMY.Types.Filter(expression);
/** The narrowing as the SQL it runs and its parameters. */
function rendered(n: ReturnType<typeof usersNarrowing>) {
  if (!n.where) return { exact: n.exact };
  const { sql, params } = dialect.sqlToQuery(n.where);
  return { exact: n.exact, sql, params };
}

describe('usersNarrowing', () => {
  it('answers the look-ups clients make in SQL alone', () => {
    expect(rendered(usersNarrowing(filter('userName eq "Ann@Example.org"')))).toEqual({
      exact: true,
      sql: '"identity"."users"."username" = lower($1)',
      params: ['Ann@Example.org'],
    });
    expect(rendered(usersNarrowing(filter('externalId eq "e-1" or emails.value eq "a@b.org"')))).toEqual({
      exact: true,
      sql: '("identity"."users"."external_id" = $1 or lower("identity"."users"."email") = lower($2))',
      params: ['e-1', 'a@b.org'],
    });
    expect(rendered(usersNarrowing(filter('active eq "False" and id eq "12"')))).toEqual({
      exact: true,
      sql: '("identity"."users"."disabled_at" is not null and "identity"."users"."id" = $1)',
      params: [12],
    });
  });

  it('finds nothing for an id LWS never gives out, without asking scimmy', () => {
    expect(rendered(usersNarrowing(filter('id eq "abc"')))).toEqual({ exact: true, sql: 'false', params: [] });
  });

  it('narrows by what it can and leaves the rest to scimmy', () => {
    expect(rendered(usersNarrowing(filter('emails[type eq "work" and value eq "a@b.org"]')))).toEqual({
      exact: false,
      sql: 'lower("identity"."users"."email") = lower($1)',
      params: ['a@b.org'],
    });
    expect(rendered(usersNarrowing(filter('userName eq "ann" and title pr')))).toMatchObject({ exact: false, params: ['ann'] });
  });

  it('cannot narrow a branch with no condition SQL knows: every account is a candidate', () => {
    expect(usersNarrowing(filter('userName sw "a"'))).toEqual({ where: undefined, exact: false });
    expect(usersNarrowing(filter('userName eq "ann" or nickName eq "A"'))).toEqual({ where: undefined, exact: false });
  });

  it('has nothing to narrow without a filter', () => {
    expect(usersNarrowing(undefined)).toEqual({ exact: true });
  });
});

describe('groupsNarrowing', () => {
  it('finds a team by its name whatever the case (names are unique that way), or by externalId', () => {
    expect(rendered(groupsNarrowing(filter('displayName eq "North"')))).toEqual({
      exact: true,
      sql: 'lower("identity"."teams"."name") = lower($1)',
      params: ['North'],
    });
    expect(rendered(groupsNarrowing(filter('externalId eq "g-1"')))).toMatchObject({ exact: true, params: ['g-1'] });
    expect(groupsNarrowing(filter('members.value eq "12"')).exact).toBe(false);
  });
});

describe('matcher', () => {
  const ann = { userName: 'ann@example.org', emails: [{ value: 'ann@example.org', type: 'work' }], active: true };
  const bob = { userName: 'bob', active: false };

  it('compares userName without case, as LWS keeps it lower-cased', () => {
    const matches = matcher(withUserNameLowered(filter('userName eq "Ann@Example.org" and active eq true')));
    expect([ann, bob].map(matches)).toEqual([true, false]);
  });

  it('is no match, not an error, for a condition on an attribute a resource lacks', () => {
    const matches = matcher(filter('emails[type eq "work"] or active eq false'));
    expect([ann, bob].map(matches)).toEqual([true, true]);
  });
});

describe('a filter scimmy parses but cannot apply', () => {
  it('is a SCIM 400 invalidFilter', () => {
    expect(() => matcher(filter('userName eq'))).toThrow(expect.objectContaining({ status: 400, scimType: 'invalidFilter' }));
    expect(() => withUserNameLowered(filter('userName eq'))).toThrow(SCIMMY.Types.Error);
  });
});
