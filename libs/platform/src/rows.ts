import { getTableColumns, type Table } from 'drizzle-orm';

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
