import { Module } from '@nestjs/common';
import { ContactsController } from './contacts.controller';
import { ProfileService } from './profile.service';
import { SettingsController } from './settings.controller';

@Module({ controllers: [ContactsController, SettingsController], providers: [ProfileService] })
export class ProfileModule {}
