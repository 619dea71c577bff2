import { Controller, Get, Req } from '@nestjs/common';
import { Roles, type AuthedRequest } from '../common/session.guard';
import { managerOf, UsersService } from './users.service';
import { TokenScope } from '../api-tokens/token-scope';

/** The account lists behind the admin and superadmin dashboards. */
@Controller('api')
export class AccountsController {
  constructor(private readonly users: UsersService) {}

  @Get('worker-accounts')
  @TokenScope('users:read')
  @Roles('admin', 'superadmin')
  accounts(@Req() req: AuthedRequest) {
    return this.users.accounts(managerOf(req));
  }

  @Get('data/workers')
  @TokenScope('users:read')
  @Roles('admin', 'superadmin')
  workers(@Req() req: AuthedRequest) {
    return this.users.workers(managerOf(req));
  }
}
