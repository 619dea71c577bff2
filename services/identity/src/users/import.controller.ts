import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import type { CommandMap } from '@lws/contracts';
import { Command } from '@lws/messaging';
import { ImportService } from './import.service';

@Controller()
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @Command('identity.user.import_stage.v1')
  stage(@Payload() req: CommandMap['identity.user.import_stage.v1']['request']) {
    return this.imports.stage(req);
  }

  @Command('identity.user.import_apply.v1')
  apply(@Payload() req: CommandMap['identity.user.import_apply.v1']['request']) {
    return this.imports.apply(req);
  }
}
