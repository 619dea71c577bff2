import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { CredentialsController } from './credentials.controller';
import { CredentialsService } from './credentials.service';

@Module({ imports: [UsersModule], controllers: [CredentialsController], providers: [CredentialsService] })
export class CredentialsModule {}
