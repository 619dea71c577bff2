import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { CredentialsService } from './credentials.service';

type Req<P extends keyof CommandMap> = CommandMap[P]['request'];

@Controller()
export class CredentialsController {
  constructor(private readonly credentials: CredentialsService) {}

  @Command('identity.pin.verify.v1')
  verifyPin(@Payload() req: Req<'identity.pin.verify.v1'>) {
    return this.credentials.verifyPin(req);
  }

  @Command('identity.pin.change.v1')
  changePin(@Payload() req: Req<'identity.pin.change.v1'>) {
    return this.credentials.changePin(req);
  }

  @Command('identity.pin.verify_by_phone.v1')
  verifyPinByPhone(@Payload() req: Req<'identity.pin.verify_by_phone.v1'>) {
    return this.credentials.verifyPinByPhone(req);
  }

  @Command('identity.pin.set_duress.v1')
  setDuressPin(@Payload() req: Req<'identity.pin.set_duress.v1'>) {
    return this.credentials.setDuressPin(req);
  }

  @Command('identity.pin.reset.v1')
  resetPin(@Payload() req: Req<'identity.pin.reset.v1'>) {
    return this.credentials.resetPin(req);
  }

  @Command('identity.password.change.v1')
  changePassword(@Payload() req: Req<'identity.password.change.v1'>) {
    return this.credentials.changePassword(req);
  }

  @Command('identity.password.reset.v1')
  resetPassword(@Payload() req: Req<'identity.password.reset.v1'>) {
    return this.credentials.resetPassword(req);
  }
}
