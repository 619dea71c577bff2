import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { auditSchema, messaging } from './db/schema';

export const auditService: ServiceDefinition = {
  name: 'audit',
  configShape: {},
  defaultHealthPort: 8086,
  imports: [],
  schema: auditSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
