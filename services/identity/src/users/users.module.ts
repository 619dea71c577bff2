import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hasher';
import { SuperadminBootstrap } from './superadmin.bootstrap';
import { ImportController } from './import.controller';
import { ImportService } from './import.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { DeactivationService } from './deactivation.service';
import { TeamsModule } from '../teams/teams.module';

@Module({
  imports: [TeamsModule],
  controllers: [UsersController, ImportController],
  providers: [PasswordHasher, UsersRepository, UsersService, ImportService, SuperadminBootstrap, DeactivationService],
  exports: [PasswordHasher, UsersRepository, UsersService, DeactivationService],
})
export class UsersModule {}
