import { Module } from '@nestjs/common';
import { CheckInsController } from './check-ins.controller';
import { DashboardsController } from './dashboards.controller';
import { EmergencyController } from './emergency.controller';
import { OwnEmergencyController } from './own-emergency.controller';
import { ShiftsController } from './shifts.controller';

/** Shifts, check-ins, emergencies and the monitors' dashboards, served by the shifts service. */
@Module({ controllers: [ShiftsController, CheckInsController, EmergencyController, OwnEmergencyController, DashboardsController] })
export class ShiftsModule {}
