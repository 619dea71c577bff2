import { Controller, Get, Header, Inject, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { CLOCK, type Clock } from '@lws/platform';
import { actorOf, scopeField, workerScope } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { browserReport, reportCsv } from './alarm-report.view';
import { reportQuery } from './reports.schema';

/** Monthly alarm figures for the monitors (BS 8484 reporting), served by escalation. */
@Controller('api/reports')
@Roles('admin', 'superadmin')
export class ReportsController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** An admin's figures count only the alarms of their teams' workers. */
  private async report(query: unknown, req: AuthedRequest) {
    const { month } = parseInput(reportQuery(this.clock()), query);
    const scope = await workerScope(this.rpc, actorOf(req));
    return this.rpc.send('escalation.report.monthly.v1', { month, ...scopeField(scope) });
  }

  @Get('alarms')
  @Header('Cache-Control', 'no-store')
  async alarms(@Query() query: unknown, @Req() req: AuthedRequest) {
    return browserReport(await this.report(query, req));
  }

  @Get('alarms.csv')
  async csv(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const report = await this.report(query, req);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="lws-alarms-${report.month}.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    return reportCsv(report);
  }
}
