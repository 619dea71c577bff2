import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { SsoModule } from '../sso/sso.module';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';

@Module({ imports: [UsersModule, SsoModule], controllers: [AuthController], providers: [AuthService] })
export class AuthModule {}
