import SCIMMY from 'scimmy';
import { and, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { teams, users } from '../db/schema';
import { booleanOf } from './dialect';
import { accountId } from './group-mapping';

/**
 * SCIM filters, as scimmy parses them, put to the database. A filter is branches (or) of
 * conditions (and); the conditions clients look accounts and groups up by (`userName eq`,
 * `externalId eq`, `displayName eq`, `emails.value eq`, `active eq`, `id eq`) become SQL, so a look-up
 * among thousands reads one row. A filter with any other condition is narrowed by the ones that
 * translate and the rest is left to scimmy on what that reads, which must stay under a bound.
 */

/** The SQL for one condition, and whether it is all the condition says (else scimmy checks the rows it reads). */
type Translation = { where: SQL; exact: boolean };
type Translator = (expression: unknown) => Translation | undefined;

export interface Narrowing {
  /** Undefined: nothing narrows it, every row is a candidate. */
  where?: SQL;
  /** The SQL says all the filter does: its rows are the answer, no check left to scimmy. */
  exact: boolean;
}

const CORE = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;

/** A filter attribute's name as the translators know it: lower-case, without the core schema's URN. */
const attributeName = (attribute: string) => attribute.replace(CORE, '').toLowerCase();

/** The value of a plain `eq` (not negated, not one of several conditions on the attribute). */
function equalTo(expression: unknown): unknown {
  if (!Array.isArray(expression) || expression.length !== 2 || expression[0] !== 'eq') return undefined;
  return expression[1];
}

const exactly = (where: SQL): Translation => ({ where, exact: true });

const byId =
  (column: typeof users.id | typeof teams.id): Translator =>
  (expression) => {
    const value = equalTo(expression);
    if (typeof value !== 'string') return undefined;
    const id = accountId(value);
    return exactly(id === undefined ? sql`false` : eq(column, id));
  };

const byText =
  (match: (value: string) => SQL): Translator =>
  (expression) => {
    const value = equalTo(expression);
    return typeof value === 'string' ? exactly(match(value)) : undefined;
  };

const USER_TRANSLATORS: Record<string, Translator> = {
  id: byId(users.id),
  // Usernames are kept lower-cased and compared without case (userName is not caseExact).
  username: byText((v) => sql`${users.username} = lower(${v})`),
  externalid: byText((v) => eq(users.externalId, v)),
  displayname: byText((v) => eq(users.name, v)),
  emails: (expression) => {
    if (typeof expression !== 'object' || expression === null || Array.isArray(expression)) return undefined;
    const entries = Object.entries(expression);
    const value = equalTo(entries.find(([k]) => k.toLowerCase() === 'value')?.[1]);
    if (typeof value !== 'string') return undefined;
    // Only the one e-mail is kept: a condition on its type is checked by scimmy on the row read.
    return { where: sql`lower(${users.email}) = lower(${value})`, exact: entries.length === 1 };
  },
  active: (expression) => {
    const value = equalTo(expression);
    const active = typeof value === 'string' ? booleanOf(value) : value;
    if (typeof active !== 'boolean') return undefined;
    return exactly(active ? isNull(users.disabledAt) : isNotNull(users.disabledAt));
  },
};

const GROUP_TRANSLATORS: Record<string, Translator> = {
  id: byId(teams.id),
  externalid: byText((v) => eq(teams.externalId, v)),
  // Team names are unique whatever their case, so this finds the one team a directory means.
  displayname: byText((v) => sql`lower(${teams.name}) = lower(${v})`),
};

function narrowing(filter: SCIMMY.Types.Filter | undefined, translators: Record<string, Translator>): Narrowing {
  if (!filter) return { exact: true };
  let exact = true;
  let unbounded = false;
  const branches: SQL[] = [];
  for (const branch of filter as unknown as Record<string, unknown>[]) {
    const conditions: SQL[] = [];
    for (const [attribute, expression] of Object.entries(branch)) {
      const translated = translators[attributeName(attribute)]?.(expression);
      if (translated) conditions.push(translated.where);
      if (!translated?.exact) exact = false;
    }
    if (conditions.length === 0) unbounded = true;
    else branches.push(conditions.length === 1 ? conditions[0] : and(...conditions)!);
  }
  return { where: unbounded ? undefined : branches.length === 1 ? branches[0] : or(...branches), exact };
}

/**
 * A filter rebuilt from scimmy's expression objects; scimmy's parser lets a few broken filters
 * through (`userName eq` with no value) that it then refuses here with a TypeError: the client's
 * mistake, a SCIM 400.
 */
function rebuilt(branches: Record<string, unknown>[]): SCIMMY.Types.Filter {
  try {
    return new SCIMMY.Types.Filter(branches);
  } catch (err) {
    throw new SCIMMY.Types.Error(400, 'invalidFilter', err instanceof Error ? err.message : 'Invalid filter');
  }
}

const branchesOf = (filter: SCIMMY.Types.Filter) => JSON.parse(JSON.stringify([...filter])) as Record<string, unknown>[];

export const usersNarrowing = (filter?: SCIMMY.Types.Filter) => narrowing(filter, USER_TRANSLATORS);
export const groupsNarrowing = (filter?: SCIMMY.Types.Filter) => narrowing(filter, GROUP_TRANSLATORS);

/**
 * The filter with userName compared as LWS keeps it (lower-cased), for scimmy, which compares
 * strings exactly: `userName eq "Ann@Example.org"` finds "ann@example.org" either way.
 */
export function withUserNameLowered(filter: SCIMMY.Types.Filter): SCIMMY.Types.Filter {
  const lower = (expression: unknown): unknown =>
    Array.isArray(expression)
      ? expression.every(Array.isArray)
        ? expression.map(lower)
        : expression.map((part, i) => (i > 0 && typeof part === 'string' && i === expression.length - 1 ? part.toLowerCase() : part))
      : expression;
  return rebuilt(
    branchesOf(filter).map((branch) =>
      Object.fromEntries(Object.entries(branch).map(([k, v]) => [k, attributeName(k) === 'username' ? lower(v) : v])),
    ),
  );
}

/**
 * Whether scimmy's filter matches a resource, one branch at a time: scimmy throws on a condition
 * about a complex attribute the resource lacks (a user with no e-mail), which is simply no match.
 */
export function matcher(filter: SCIMMY.Types.Filter): (resource: Record<string, unknown>) => boolean {
  const branches = branchesOf(filter).map((b) => rebuilt([b]));
  return (resource) =>
    branches.some((branch) => {
      try {
        return branch.match([resource]).length > 0;
      } catch {
        return false;
      }
    });
}
