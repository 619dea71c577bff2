import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { identityConfigShape } from './config';
import { identitySchema, messaging } from './db/schema';
import { AuthModule } from './auth/auth.module';
import { UsersModule } from './users/users.module';

export const identityService: ServiceDefinition = {
  name: 'identity',
  configShape: identityConfigShape,
  defaultHealthPort: 8081,
  imports: [UsersModule, AuthModule],
  schema: identitySchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
