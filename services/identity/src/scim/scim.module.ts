import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { ScimController } from './scim.controller';
import { ScimGroups } from './scim-groups';
import { ScimService } from './scim.service';
import { ScimTokensService } from './scim-tokens.service';
import { ScimUsers } from './scim-users';

/** Provisioning by SCIM 2.0: the organisation's directory keeps accounts and teams as HR has them. */
@Module({
  imports: [UsersModule, TeamsModule],
  controllers: [ScimController],
  providers: [ScimTokensService, ScimUsers, ScimGroups, ScimService],
})
export class ScimModule {}
