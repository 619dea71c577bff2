import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { EntriesService } from './entries.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class EntriesController {
  constructor(private readonly entries: EntriesService) {}

  @Command('audit.entry.list.v1')
  list(@Payload() req: Req<'audit.entry.list.v1'>) {
    return this.entries.list(req);
  }

  @Command('audit.entry.record.v1')
  record(@Payload() req: Req<'audit.entry.record.v1'>) {
    return this.entries.recordFromClient(req);
  }
}
