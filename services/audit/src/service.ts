import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { auditSchema, messaging } from './db/schema';
import { EntriesModule } from './entries/entries.module';
import { EventsModule } from './events/events.module';

export const auditService: ServiceDefinition = {
  name: 'audit',
  configShape: {},
  defaultHealthPort: 8086,
  imports: [EntriesModule, EventsModule],
  schema: auditSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
