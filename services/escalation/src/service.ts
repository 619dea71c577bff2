import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { escalationSchema, messaging } from './db/schema';
import { escalationConfigShape, SERVICE_NAME } from './config';
import { EscalationModule } from './escalation.module';
import { ReportsModule } from './reports/reports.module';

export const escalationService: ServiceDefinition = {
  name: SERVICE_NAME,
  configShape: escalationConfigShape,
  defaultHealthPort: 8084,
  imports: [EscalationModule, ReportsModule],
  schema: escalationSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
