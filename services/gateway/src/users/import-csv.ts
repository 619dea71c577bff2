import { parse } from 'csv-parse/sync';
import { z } from 'zod';
import type { CommandMap } from '@lws/contracts';
import { textCell } from '../common/csv-cell';
import { unsafeText } from '../common/text-safety';
import { createUserSchema, creationPhone, spokenLanguage } from './users.schema';

type ImportRow = CommandMap['identity.user.import_stage.v1']['request']['rows'][number];

/** The most rows one import takes (a file of 10,000 workers imports in well under a minute). */
export const MAX_IMPORT_ROWS = 10_000;
/** The file's size limit: 10,000 rows of long names fit. */
export const IMPORT_LIMIT_MB = 5;

export const IMPORT_COLUMNS = ['username', 'name', 'phone', 'role', 'team', 'pin', 'language'] as const;
const REQUIRED_COLUMNS = ['username', 'name', 'phone', 'role'] as const;
type Column = (typeof IMPORT_COLUMNS)[number];

export interface RowError {
  field: Column;
  message: string;
}

export interface CheckedRow {
  /** The row's number in the file, counting the header as row 1. */
  line: number;
  username: string;
  /** The row as staged, when every field is right. */
  row?: ImportRow;
  errors: RowError[];
}

/** A whole-file problem: 400 naming `file`, nothing staged. */
export class ImportFileError extends Error {}

const rowSchema = z.object({
  username: createUserSchema.shape.username,
  name: createUserSchema.shape.name,
  phone: creationPhone,
  role: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || 'worker' : v),
    z.enum(['worker', 'admin'], { errorMap: () => ({ message: 'Role must be worker or admin' }) }),
  ),
  team: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z.string().max(100, 'Team name must be at most 100 characters').optional(),
  ),
  pin: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z
      .string()
      .regex(/^\d{4}$/, 'PIN must be exactly 4 digits')
      .optional(),
  ),
  language: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v), spokenLanguage.optional()),
});

/**
 * Reads an import file (`username,name,phone,role,team,pin,language`; team, pin and language may be
 * empty or left out)
 * and checks every row with the same rules as a single create, so a row is refused for the same
 * reason the form would refuse it. A username listed twice is refused on its second row.
 */
export function checkImportCsv(text: string): CheckedRow[] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false, trim: false });
  } catch (err) {
    const where = (err as { lines?: number }).lines;
    throw new ImportFileError(
      `The file is not valid CSV${where ? ` (near line ${where})` : ''}: each row needs the header's number of columns, and quotes must be closed`,
    );
  }
  if (records.length === 0)
    throw new ImportFileError(`The file is empty: its first row must name the columns (${IMPORT_COLUMNS.join(',')})`);
  const header = records[0].map((h) => h.trim().toLowerCase());
  const unknown = header.find((h) => !(IMPORT_COLUMNS as readonly string[]).includes(h));
  if (unknown !== undefined)
    throw new ImportFileError(`Unknown column "${unknown.slice(0, 40)}": the columns are ${IMPORT_COLUMNS.join(',')}`);
  const missing = REQUIRED_COLUMNS.find((c) => !header.includes(c));
  if (missing) throw new ImportFileError(`The column "${missing}" is missing: the columns are ${IMPORT_COLUMNS.join(',')}`);
  if (new Set(header).size !== header.length) throw new ImportFileError('A column is named twice');
  const rows = records.slice(1);
  if (rows.length === 0) throw new ImportFileError('The file has no rows under its header');
  if (rows.length > MAX_IMPORT_ROWS)
    throw new ImportFileError(`The file has ${rows.length} rows: at most ${MAX_IMPORT_ROWS} per import (split it)`);

  const firstRow = new Map<string, number>();
  return rows.map((cells, i) => {
    const line = i + 2;
    const raw = Object.fromEntries(header.map((h, c) => [h, cells[c]])) as Partial<Record<Column, string>>;
    const username = (raw.username ?? '').trim().toLowerCase();
    const errors: RowError[] = [];
    for (const column of header as Column[]) {
      const problem = unsafeText(raw[column], column);
      if (problem) errors.push({ field: column, message: problem.message });
    }
    if (errors.length > 0) return { line, username, errors };
    const parsed = rowSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Column;
        if (!errors.some((e) => e.field === field)) errors.push({ field, message: issue.message });
      }
      return { line, username, errors };
    }
    const earlier = firstRow.get(parsed.data.username);
    if (earlier !== undefined)
      return { line, username, errors: [{ field: 'username', message: `Listed twice in the file (first on row ${earlier})` }] };
    firstRow.set(parsed.data.username, line);
    const { team, pin, language, ...rest } = parsed.data;
    return {
      line,
      username,
      errors,
      row: { line, ...rest, ...(team ? { team } : {}), ...(pin ? { pin } : {}), ...(language ? { language } : {}) },
    };
  });
}

/** The generated credentials, once, as a CSV to hand out. */
export function credentialsCsv(lines: { username: string; name: string; password: string; pin?: string }[]): string {
  return `${['username,name,password,pin', ...lines.map((l) => [l.username, l.name, l.password, l.pin ?? ''].map(textCell).join(','))].join('\r\n')}\r\n`;
}
