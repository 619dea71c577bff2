import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { UsersModule } from '../users/users.module';
import { AccountsService } from './accounts.service';
import { ContactsRepository } from './contacts.repository';
import { ContactsService } from './contacts.service';
import { ProfileController } from './profile.controller';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

@Module({
  imports: [UsersModule, TeamsModule],
  controllers: [ProfileController],
  providers: [AccountsService, ContactsRepository, ContactsService, SettingsRepository, SettingsService],
})
export class ProfileModule {}
