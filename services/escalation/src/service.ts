import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { escalationSchema, messaging } from './db/schema';

export const escalationService: ServiceDefinition = {
  name: 'escalation',
  configShape: {},
  defaultHealthPort: 8084,
  imports: [],
  schema: escalationSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
