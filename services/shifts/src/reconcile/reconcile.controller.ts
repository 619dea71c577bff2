import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ReconcileService } from './reconcile.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class ReconcileController {
  constructor(private readonly reconcile: ReconcileService) {}

  @Command('shifts.reconcile.digest.v1')
  digest(@Payload() req: Req<'shifts.reconcile.digest.v1'>) {
    return this.reconcile.digest(req);
  }

  @Command('shifts.reconcile.hashes.v1')
  hashes(@Payload() req: Req<'shifts.reconcile.hashes.v1'>) {
    return this.reconcile.hashes(req);
  }

  @Command('shifts.reconcile.workers.v1')
  workers(@Payload() req: Req<'shifts.reconcile.workers.v1'>) {
    return this.reconcile.workers(req);
  }
}
