import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { KiosksService } from './kiosks.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class KiosksController {
  constructor(private readonly kiosks: KiosksService) {}

  @Command('identity.kiosk.enrol.v1')
  enrol(@Payload() req: Req<'identity.kiosk.enrol.v1'>) {
    return this.kiosks.enrol(req);
  }

  @Command('identity.kiosk.list.v1')
  list() {
    return this.kiosks.list();
  }

  @Command('identity.kiosk.revoke.v1')
  revoke(@Payload() req: Req<'identity.kiosk.revoke.v1'>) {
    return this.kiosks.revoke(req);
  }

  @Command('identity.kiosk.current.v1')
  current(@Payload() req: Req<'identity.kiosk.current.v1'>) {
    return this.kiosks.current(req);
  }

  @Command('identity.kiosk.pin_login.v1')
  pinLogin(@Payload() req: Req<'identity.kiosk.pin_login.v1'>) {
    return this.kiosks.pinLogin(req);
  }

  @Command('identity.kiosk.roster.v1')
  roster(@Payload() req: Req<'identity.kiosk.roster.v1'>) {
    return this.kiosks.roster(req);
  }
}
