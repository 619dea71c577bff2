import { join } from 'node:path';
import type { ServiceDefinition } from '@lws/platform';
import { shiftsConfigShape } from './config';
import { shiftsSchema, messaging } from './db/schema';
import { ShiftsModule } from './shifts/shifts.module';
import { CheckInsModule } from './check-ins/check-ins.module';
import { EmergenciesModule } from './emergencies/emergencies.module';
import { DashboardsModule } from './dashboards/dashboards.module';
import { DeadlinesModule } from './deadlines/deadlines.module';
import { ProjectionsModule } from './projections/projections.module';
import { ReconcileModule } from './reconcile/reconcile.module';
import { VisitsModule } from './visits/visits.module';

export const shiftsService: ServiceDefinition = {
  name: 'shifts',
  configShape: shiftsConfigShape,
  defaultHealthPort: 8083,
  imports: [
    ShiftsModule,
    CheckInsModule,
    EmergenciesModule,
    DashboardsModule,
    DeadlinesModule,
    ProjectionsModule,
    ReconcileModule,
    VisitsModule,
  ],
  schema: shiftsSchema,
  tables: messaging,
  migrationsFolder: join(__dirname, '..', 'drizzle'),
};
