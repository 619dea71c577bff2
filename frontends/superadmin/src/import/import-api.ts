export type ImportAction = 'created' | 'updated' | 'unchanged' | 'error';

export interface ImportRowResult {
  row: number;
  username: string;
  action: ImportAction;
  fields?: string[];
  errors?: { field: string; message: string }[];
}

/** The answer of POST /api/users/import (dry run, import, or a refused import's 422). */
export interface ImportResult {
  dryRun: boolean;
  applied: boolean;
  message?: string;
  summary: { rows: number; created: number; updated: number; unchanged: number; errors: number };
  rows: ImportRowResult[];
  credentialsCsv?: string;
}

const ACTIONS: readonly string[] = ['created', 'updated', 'unchanged', 'error'];

export function parseImportResult(body: unknown): ImportResult {
  const v = body as Partial<ImportResult> | null;
  if (!v || typeof v !== 'object' || !Array.isArray(v.rows) || !v.summary || typeof v.summary.rows !== 'number')
    throw new Error('Invalid response from server');
  const rows = v.rows.filter(
    (r): r is ImportRowResult => !!r && typeof r.row === 'number' && typeof r.username === 'string' && ACTIONS.includes(r.action),
  );
  return {
    dryRun: v.dryRun === true,
    applied: v.applied === true,
    ...(typeof v.message === 'string' ? { message: v.message } : {}),
    summary: v.summary,
    rows,
    ...(typeof v.credentialsCsv === 'string' ? { credentialsCsv: v.credentialsCsv } : {}),
  };
}
