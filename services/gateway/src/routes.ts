import type { DynamicModule, Type } from '@nestjs/common';
import type { InProcessBus } from '@lws/messaging';
import { ActivityModule } from './activity/activity.module';
import { ApiTokensModule } from './api-tokens/api-tokens.module';
import { WebhooksModule } from './webhooks/webhooks.module';
import { AuthController } from './auth/auth.controller';
import { SsoController } from './auth/sso.controller';
import { CredentialsController } from './credentials/credentials.controller';
import { EscalationModule } from './escalation/escalation.module';
import { KiosksController } from './kiosks/kiosks.controller';
import { LiveModule } from './live/live.module';
import { LocationsModule } from './locations/locations.module';
import { NotificationsModule } from './notifications/notifications.module';
import { OpenApiController } from './openapi/openapi.controller';
import { ProfileModule } from './profile/profile.module';
import { ReportsModule } from './reports/reports.module';
import { ScimModule } from './scim/scim.module';
import { ShiftsModule } from './shifts/shifts.module';
import { DeadLettersController } from './system/dead-letters.controller';
import { GatewayHealthController } from './system/health.controller';
import { SsoSettingsController } from './system/sso-settings.controller';
import { SystemController } from './system/system.controller';
import { AwayController } from './teams/away.controller';
import { MyOnCallController } from './teams/my-on-call.controller';
import { OnCallController } from './teams/on-call.controller';
import { TeamsController } from './teams/teams.controller';
import { TimeModule } from './time/time.module';
import { UsersModule } from './users/users.module';

/**
 * Every route the gateway serves comes from these: startGateway mounts them and the OpenAPI
 * generator documents them, so a route added here is in the document (or fails its test) the
 * same day.
 */
export interface RouteOptions {
  /** LWS_TEST_CLOCK: the test clock's routes exist. */
  testClock: boolean;
  /** The embedded launcher's bus, which the live stream tails when there is no NATS. */
  inProcessBus?: InProcessBus;
}

export function featureModules(opts: RouteOptions): (Type | DynamicModule)[] {
  return [
    UsersModule,
    ProfileModule,
    LocationsModule,
    ShiftsModule,
    EscalationModule,
    NotificationsModule,
    TimeModule.register(opts.testClock),
    ActivityModule,
    ReportsModule,
    LiveModule.register(opts.inProcessBus),
    ScimModule,
    ApiTokensModule,
    WebhooksModule,
  ];
}

export const ROOT_CONTROLLERS: Type[] = [
  GatewayHealthController,
  AuthController,
  SsoController,
  SystemController,
  SsoSettingsController,
  DeadLettersController,
  CredentialsController,
  KiosksController,
  TeamsController,
  OnCallController,
  MyOnCallController,
  AwayController,
  OpenApiController,
];
