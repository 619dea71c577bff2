import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { DashboardsService } from './dashboards.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Command('shifts.worker.states.v1')
  async states(@Payload() req: Req<'shifts.worker.states.v1'>) {
    return { workers: await this.dashboards.states(req.userIds) };
  }

  @Command('shifts.worker.list.v1')
  list(@Payload() req: Req<'shifts.worker.list.v1'>) {
    return this.dashboards.list(req);
  }

  @Command('shifts.dashboard.get.v1')
  dashboard(@Payload() req: Req<'shifts.dashboard.get.v1'>) {
    return this.dashboards.dashboard(req);
  }
}
