import { Module } from '@nestjs/common';
import { AccountsController } from './accounts.controller';
import { ImportController } from './import.controller';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

@Module({ controllers: [ImportController, UsersController, AccountsController], providers: [UsersService] })
export class UsersModule {}
