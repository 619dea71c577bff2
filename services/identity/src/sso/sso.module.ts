import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module';
import { OidcProvider } from './oidc-provider';
import { SecretBox } from './secret-box';
import { SsoController } from './sso.controller';
import { SsoService } from './sso.service';

@Module({
  imports: [UsersModule],
  controllers: [SsoController],
  providers: [SecretBox, OidcProvider, SsoService],
  exports: [SsoService, SecretBox],
})
export class SsoModule {}
