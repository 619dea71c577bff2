import { BadRequestException, Controller, HttpCode, Inject, Post, Query, Req, Res, UnsupportedMediaTypeException } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { z } from 'zod';
import type { CommandMap } from '@lws/contracts';
import type { RpcClient } from '@lws/messaging';
import { RPC } from '../common/rpc';
import { parseInput } from '../common/validation';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { checkImportCsv, credentialsCsv, ImportFileError, type CheckedRow, type RowError } from './import-csv';

type ApplyReply = CommandMap['identity.user.import_apply.v1']['reply'];

/** Rows per bus message: a message holds at most 1 MB, and 1,000 rows of long names stay well under it. */
const STAGE_CHUNK = 1000;
/** 10,000 new accounts take identity about 20 s; the default RPC wait is 5 s. */
const APPLY_TIMEOUT_MS = 120_000;

export const importQuerySchema = z
  .object({
    dryRun: z
      .enum(['true', 'false'], { errorMap: () => ({ message: 'dryRun must be true or false' }) })
      .optional()
      .transform((v) => v === 'true'),
  })
  .strict();

export type ImportAction = 'created' | 'updated' | 'unchanged' | 'error';

export interface ImportRowResult {
  row: number;
  username: string;
  action: ImportAction;
  /** What an update changes. */
  fields?: string[];
  errors?: RowError[];
}

/**
 * Bulk onboarding: the superadmin sends a CSV (`text/csv`, up to 10,000 rows). A dry run
 * says what each row would do and changes nothing; the real run applies every row or none (422 with
 * the same table when any row is wrong), and is idempotent: rows match accounts by username. New
 * accounts' generated passwords and PINs come back once, as `credentialsCsv`.
 */
@Controller('api/users/import')
export class ImportController {
  constructor(@Inject(RPC) private readonly rpc: RpcClient) {}

  @Post()
  @Roles('superadmin')
  @HttpCode(200)
  async import(@Req() req: AuthedRequest, @Query() query: unknown, @Res({ passthrough: true }) res: Response) {
    const { dryRun } = parseInput(importQuerySchema, query);
    if (!req.is('text/csv')) throw new UnsupportedMediaTypeException({ message: 'Send the file as text/csv', field: 'file' });
    if (typeof req.body !== 'string') throw new BadRequestException({ message: 'The file is empty', field: 'file' });
    let checked: CheckedRow[];
    try {
      checked = checkImportCsv(req.body);
    } catch (err) {
      if (err instanceof ImportFileError) throw new BadRequestException({ message: err.message, field: 'file' });
      throw err;
    }
    const actorId = req.session!.userId;
    const valid = checked.filter((c) => c.row);
    // Rows refused at the edge still get the rest of the file checked, so the table is complete.
    const planOnly = dryRun || valid.length < checked.length;
    const reply = valid.length === 0 ? undefined : await this.send(actorId, valid, planOnly);
    const rows = results(checked, reply);
    const summary = {
      rows: rows.length,
      created: rows.filter((r) => r.action === 'created').length,
      updated: rows.filter((r) => r.action === 'updated').length,
      unchanged: rows.filter((r) => r.action === 'unchanged').length,
      errors: rows.filter((r) => r.action === 'error').length,
    };
    const applied = reply?.applied === true;
    if (!dryRun && !applied) res.status(422);
    const byLine = new Map(valid.map((c) => [c.line, c.row!]));
    const credentials = (reply?.credentials ?? []).map((c) => ({
      username: byLine.get(c.line)!.username,
      name: byLine.get(c.line)!.name,
      password: c.password,
      ...(c.pin ? { pin: c.pin } : {}),
    }));
    return {
      dryRun,
      applied,
      ...(!dryRun && !applied ? { message: 'Nothing was imported: correct the rows marked error and send the file again' } : {}),
      summary,
      rows,
      ...(credentials.length > 0 ? { credentialsCsv: credentialsCsv(credentials) } : {}),
    };
  }

  private async send(actorId: number, valid: CheckedRow[], dryRun: boolean): Promise<ApplyReply> {
    const importId = randomUUID();
    for (let i = 0; i < valid.length; i += STAGE_CHUNK) {
      await this.rpc.send(
        'identity.user.import_stage.v1',
        { importId, actorId, rows: valid.slice(i, i + STAGE_CHUNK).map((c) => c.row!) },
        { timeoutMs: 30_000 },
      );
    }
    return this.rpc.send(
      'identity.user.import_apply.v1',
      { importId, actorId, dryRun, rowCount: valid.length },
      { timeoutMs: APPLY_TIMEOUT_MS },
    );
  }
}

/** One result per row of the file, in its order: the edge's refusals, then identity's plan. */
function results(checked: CheckedRow[], reply: ApplyReply | undefined): ImportRowResult[] {
  const outcome = new Map<number, Omit<ImportRowResult, 'row' | 'username'>>();
  if (reply) {
    for (const line of reply.created) outcome.set(line, { action: 'created' });
    for (const line of reply.unchanged) outcome.set(line, { action: 'unchanged' });
    for (const group of reply.updated) for (const line of group.lines) outcome.set(line, { action: 'updated', fields: group.fields });
    for (const group of reply.errors)
      for (const line of group.lines) outcome.set(line, { action: 'error', errors: [{ field: group.field, message: group.message }] });
  }
  return checked.map((c) => {
    if (!c.row) return { row: c.line, username: c.username, action: 'error', errors: c.errors };
    return {
      row: c.line,
      username: c.username,
      ...(outcome.get(c.line) ?? { action: 'error', errors: [{ field: 'username', message: 'Not checked' }] }),
    };
  });
}
