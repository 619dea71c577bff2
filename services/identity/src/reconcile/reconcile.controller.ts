import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ReconcileService } from './reconcile.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class ReconcileController {
  constructor(private readonly reconcile: ReconcileService) {}

  @Command('identity.reconcile.digest.v1')
  digest(@Payload() req: Req<'identity.reconcile.digest.v1'>) {
    return this.reconcile.digest(req);
  }

  @Command('identity.reconcile.hashes.v1')
  hashes(@Payload() req: Req<'identity.reconcile.hashes.v1'>) {
    return this.reconcile.hashes(req);
  }

  @Command('identity.reconcile.users.v1')
  users(@Payload() req: Req<'identity.reconcile.users.v1'>) {
    return this.reconcile.users(req);
  }
}
