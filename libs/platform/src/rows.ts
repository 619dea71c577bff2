import { type Column, getTableColumns, getTableName, is, sql, SQL, type Table } from 'drizzle-orm';

/**
 * Reads rows a template (`tx.execute(sql\`...\`)`) returned as the query builder would: keyed by
 * property, each value through its column's mapping (dates, numbers). Hot statements are templates
 * (the builder's CPU cost per statement is about fifty times a template's, bench/checkin), and
 * their callers still get the table's row type.
 */
export function rowsOf<T extends Table>(table: T): (raw: Record<string, unknown>) => T['$inferSelect'] {
  const columns = Object.entries(getTableColumns(table));
  return (raw) => {
    const row: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row as T['$inferSelect'];
  };
}

type Inserted<T extends Table> = T['$inferInsert'];

interface InsertColumn {
  key: string;
  name: string;
  type: string;
  json: boolean;
  column: Column;
}

/**
 * A many-row insert as one statement with one parameter: the rows go as a JSON array that
 * PostgreSQL unpacks (`jsonb_to_recordset`), in the order given. The query builder spends its CPU
 * per value (one parameter each: about 10 ms to build a 100-row insert of deliveries), and
 * PostgreSQL parses a statement of hundreds of parameters each time; this costs about the same
 * for 1 row or 1,000.
 *
 * Rows are what the builder's `.values()` takes, and a property left out (or undefined) gets what
 * the builder would give it: the column's `$defaultFn`, else its `.default()` value, else null;
 * where every row leaves it out, the database's default. The one case a single statement cannot
 * write, some rows leaving out a column whose default is SQL (`defaultNow()`), throws before
 * anything is written. `onConflict` is the text after
 * `on conflict` (e.g. sql`do nothing`). Answers the inserted rows mapped as the builder's
 * `.returning()` would, when `returning` is set.
 */
export async function insertRows<T extends Table>(
  tx: { execute(query: SQL): Promise<unknown> },
  table: T,
  rows: readonly Inserted<T>[],
  options: { onConflict?: SQL; returning?: boolean } = {},
): Promise<T['$inferSelect'][]> {
  if (rows.length === 0) return [];
  const given = rows as readonly Record<string, unknown>[];
  const columns: InsertColumn[] = Object.entries(getTableColumns(table))
    .filter(([, c]) => !(c as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert())
    .filter(([key, c]) => c.defaultFn !== undefined || given.some((r) => r[key] !== undefined))
    .map(([key, c]) => ({ key, name: c.name, type: c.getSQLType(), json: c.dataType === 'json', column: c }));
  for (const c of columns) {
    if (c.column.defaultFn === undefined && is(c.column.default, SQL) && given.some((r) => r[c.key] === undefined)) {
      throw new Error(`insertRows ${getTableName(table)}: ${c.key} is given for some rows and not others, and its default is SQL`);
    }
  }
  const records = given.map((row) => {
    const record: Record<string, unknown> = {};
    for (const c of columns) {
      const value = row[c.key] !== undefined ? row[c.key] : c.column.defaultFn ? c.column.defaultFn() : c.column.default;
      record[c.name] =
        value === undefined || value === null
          ? null
          : c.json
            ? value
            : value instanceof Date
              ? value.toISOString()
              : c.column.mapToDriverValue(value);
    }
    return record;
  });
  const names = sql.join(
    columns.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const definitions = sql.raw(columns.map((c) => `"${c.name}" ${c.type}`).join(', '));
  const conflict = options.onConflict ? sql` on conflict ${options.onConflict}` : sql``;
  const returning = options.returning ? sql` returning *` : sql``;
  const result = (await tx.execute(sql`
    insert into ${table} (${names})
    select ${names} from rows from (jsonb_to_recordset(${JSON.stringify(records)}::jsonb) as (${definitions})) with ordinality as r(${names}, "ordinality")
    order by "ordinality"${conflict}${returning}`)) as { rows?: Record<string, unknown>[] };
  return options.returning ? (result.rows ?? []).map(rowsOf(table)) : [];
}
