import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { locationsSchema, messaging } from './db/schema';
import { LocationsModule } from './locations/locations.module';

export const locationsService: ServiceDefinition = {
  name: 'locations',
  configShape: {},
  defaultHealthPort: 8082,
  imports: [LocationsModule],
  schema: locationsSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
