import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { notificationsConfigShape } from './config';
import { notificationsSchema, messaging } from './db/schema';
import { ProviderModule } from './provider/provider.module';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { OutboundWebhooksModule } from './outbound-webhooks/outbound-webhooks.module';

export const notificationsService: ServiceDefinition = {
  name: 'notifications',
  configShape: notificationsConfigShape,
  defaultHealthPort: 8085,
  imports: [ProviderModule, DeliveriesModule, OutboundWebhooksModule],
  schema: notificationsSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
