import { Controller, Get, Header, Inject, NotFoundException, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { RpcClient } from '@lws/messaging';
import { CLOCK, type Clock } from '@lws/platform';
import { actorOf, adminTeams } from '../common/access';
import { RPC } from '../common/rpc';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { parseInput } from '../common/validation';
import { alarmScopeFields } from '../escalation/alarm-scope';
import { browserReport, reportCsv } from './alarm-report.view';
import { reportQuery } from './reports.schema';
import { TokenScope } from '../api-tokens/token-scope';

/** Monthly alarm figures for the monitors (BS 8484 reporting), served by escalation. */
@Controller('api/reports')
@Roles('admin', 'superadmin')
export class ReportsController {
  constructor(
    @Inject(RPC) private readonly rpc: RpcClient,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * An admin's figures count only their teams' alarms (each alarm is the team's its worker was in
   * when it opened, so a worker who moved in brings none of their older alarms), and a team filter
   * names one of their teams (another is a 404). Team names come from identity.
   */
  private async report(query: unknown, req: AuthedRequest) {
    const { month, teamId } = parseInput(reportQuery(this.clock()), query);
    const actor = actorOf(req);
    const [mine, { teams }] = await Promise.all([adminTeams(this.rpc, actor), this.rpc.send('identity.team.list.v1', {})]);
    if (teamId !== undefined) {
      const visible = !mine || mine.all ? teams : teams.filter((t) => mine.teamIds.includes(t.id));
      if (!visible.some((t) => t.id === teamId)) throw new NotFoundException({ message: 'Team not found', field: 'teamId' });
    }
    const report = await this.rpc.send('escalation.report.monthly.v1', {
      month,
      ...alarmScopeFields(mine),
      ...(teamId !== undefined ? { teamId } : {}),
    });
    return { report, names: new Map(teams.map((t) => [t.id, t.name])) };
  }

  @Get('alarms')
  @TokenScope('alarms:read')
  @Header('Cache-Control', 'no-store')
  async alarms(@Query() query: unknown, @Req() req: AuthedRequest) {
    const { report, names } = await this.report(query, req);
    return browserReport(report, names);
  }

  @Get('alarms.csv')
  @TokenScope('alarms:read')
  async csv(@Query() query: unknown, @Req() req: AuthedRequest, @Res({ passthrough: true }) res: Response) {
    const { report, names } = await this.report(query, req);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="lws-alarms-${report.month}.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    return reportCsv(report, names);
  }
}
