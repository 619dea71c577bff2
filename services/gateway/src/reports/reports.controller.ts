import { Controller, Get, Header, Inject, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { CLOCK, type Clock } from '@lws/platform';
import { RPC } from '../common/rpc';
import { Roles } from '../common/session.guard';
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

  private report(query: unknown) {
    const { month } = parseInput(reportQuery(this.clock()), query);
    return this.rpc.send('escalation.report.monthly.v1', { month });
  }

  @Get('alarms')
  @Header('Cache-Control', 'no-store')
  async alarms(@Query() query: unknown) {
    return browserReport(await this.report(query));
  }

  @Get('alarms.csv')
  async csv(@Query() query: unknown, @Res({ passthrough: true }) res: Response) {
    const report = await this.report(query);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="lws-alarms-${report.month}.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    return reportCsv(report);
  }
}
