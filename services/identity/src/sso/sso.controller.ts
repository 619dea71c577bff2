import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { SsoService } from './sso.service';

type Req<C extends keyof CommandMap> = CommandMap[C]['request'];

@Controller()
export class SsoController {
  constructor(private readonly sso: SsoService) {}

  @Command('identity.sso.get_settings.v1')
  settings() {
    return this.sso.settings();
  }

  @Command('identity.sso.set_settings.v1')
  setSettings(@Payload() req: Req<'identity.sso.set_settings.v1'>) {
    return this.sso.setSettings(req);
  }

  @Command('identity.sso.public.v1')
  publicSettings() {
    return this.sso.publicSettings();
  }

  @Command('identity.sso.begin.v1')
  begin(@Payload() req: Req<'identity.sso.begin.v1'>) {
    return this.sso.begin(req.redirectUri);
  }

  @Command('identity.sso.complete.v1')
  complete(@Payload() req: Req<'identity.sso.complete.v1'>) {
    return this.sso.complete(req);
  }

  @Command('identity.sso.logout_url.v1')
  logoutUrl(@Payload() req: Req<'identity.sso.logout_url.v1'>) {
    return this.sso.logoutUrl(req);
  }
}
