import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ReportsService } from './reports.service';

@Controller()
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Command('escalation.report.monthly.v1')
  monthly(@Payload() req: CommandMap['escalation.report.monthly.v1']['request']) {
    return this.reports.monthly(req);
  }
}
