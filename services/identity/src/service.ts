import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { identityConfigShape } from './config';
import { identitySchema, messaging } from './db/schema';
import { AuthModule } from './auth/auth.module';
import { UsersModule } from './users/users.module';
import { ProfileModule } from './profile/profile.module';
import { PinModule } from './credentials/pin.module';
import { CredentialsModule } from './credentials/credentials.module';
import { KiosksModule } from './kiosks/kiosks.module';
import { ReconcileModule } from './reconcile/reconcile.module';
import { TeamsModule } from './teams/teams.module';
import { SsoModule } from './sso/sso.module';
import { ScimModule } from './scim/scim.module';
import { ApiTokensModule } from './api-tokens/api-tokens.module';

export const identityService: ServiceDefinition = {
  name: 'identity',
  configShape: identityConfigShape,
  defaultHealthPort: 8081,
  imports: [
    PinModule,
    TeamsModule,
    UsersModule,
    AuthModule,
    ProfileModule,
    CredentialsModule,
    KiosksModule,
    ReconcileModule,
    SsoModule,
    ScimModule,
    ApiTokensModule,
  ],
  schema: identitySchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
