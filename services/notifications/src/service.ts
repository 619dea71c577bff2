import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { notificationsSchema, messaging } from './db/schema';

export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  configShape: {},
  defaultHealthPort: 8085,
  imports: [],
  schema: notificationsSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
