import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { shiftsSchema, messaging } from './db/schema';

export const shiftsService: ServiceDefinition = {
  name: 'shifts',
  configShape: {},
  defaultHealthPort: 8083,
  imports: [],
  schema: shiftsSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
