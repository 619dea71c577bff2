import type { z } from 'zod';
import { activityListQuery, recordEntrySchema } from '../activity/activity.schema';
import { loginSchema, logoutSchema } from '../auth/auth.schema';
import { changePasswordSchema, changePinSchema, duressPinSchema, verifyPinSchema } from '../credentials/credentials.schema';
import {
  alarmListQuery,
  alarmMessageSchema,
  alarmNoteSchema,
  checkInRequestTeamSchema,
  checkInRequestWorkerSchema,
  resolveFalseAlarmSchema,
  resolveGenuineSchema,
  resolveTestSchema,
  simulateTimeSchema,
} from '../escalation/escalation.schema';
import { enrolKioskRequestSchema, pinLoginSchema } from '../kiosks/kiosks.schema';
import { createLocationSchema, updateLocationSchema } from '../locations/locations.schema';
import {
  answerSchema,
  deliveriesQuery,
  inboundSmsSchema,
  reminderTestSchema,
  subscribeSchema,
  testCallSchema,
} from '../notifications/notifications.schema';
import { createContactSchema, settingsSchema, updateContactSchema, upsertSettingsSchema } from '../profile/profile.schema';
import {
  cancelEmergencySchema,
  checkInSchema,
  dashboardQuery,
  emergencySchema,
  endShiftSchema,
  endVisitSchema,
  extendSchema,
  startShiftSchema,
  startVisitSchema,
  workerListQuery,
} from '../shifts/shifts.schema';
import { liveQuery } from '../live/live.schema';
import { moveSchema } from '../time/test-clock.controller';
import { awaySchema, createTeamSchema, updateTeamSchema } from '../teams/teams.schema';
import { createUserSchema, moveTeamSchema, updateProfileSchema } from '../users/users.schema';
import { importQuerySchema } from '../users/import.controller';
import { ssoStartQuery } from '../auth/sso.controller';
import { ssoSettingsSchema } from '../system/sso-settings.schema';
import { createScimTokenSchema } from '../scim/scim-tokens.schema';
import {
  createApiTokenSchema,
  createWebhookEndpointSchema,
  onCallAtQuery,
  onCallOverrideSchema,
  onCallTimelineQuery,
  putOnCallScheduleSchema,
  updateWebhookEndpointSchema,
  webhookDeliveriesQuery,
} from '@lws/schemas';

/**
 * The schema each route checks its body (or query) against, by `METHOD /path` as the gateway
 * routes it. Kept for the fuzzer (tests/fuzz), which builds valid requests from them and breaks
 * them one way at a time; a route missing here is fuzzed with bodies of its own invention.
 */
export const EDGE_BODIES: Record<string, z.ZodTypeAny[]> = {
  'POST /api/auth/login': [loginSchema],
  'POST /api/auth/logout': [logoutSchema],
  'POST /api/auth/change-password': [changePasswordSchema],
  'POST /api/auth/pin-login': [pinLoginSchema],
  'POST /api/users': [createUserSchema],
  'PATCH /api/users/:id': [updateProfileSchema, changePinSchema, moveTeamSchema],
  'POST /api/teams': [createTeamSchema],
  'PATCH /api/teams/:id': [updateTeamSchema],
  'PUT /api/teams/:id/on-call-schedule': [putOnCallScheduleSchema],
  'POST /api/teams/:id/on-call/overrides': [onCallOverrideSchema],
  'POST /api/users/:id/away': [awaySchema],
  'POST /api/users/:id/verify-pin': [verifyPinSchema],
  'POST /api/emergency-contacts': [createContactSchema],
  'PATCH /api/emergency-contacts/:id': [updateContactSchema],
  'PATCH /api/users/:id/settings': [settingsSchema],
  'POST /api/settings': [upsertSettingsSchema],
  'POST /api/kiosks': [enrolKioskRequestSchema],
  'POST /api/location-options': [createLocationSchema],
  'PATCH /api/location-options/:id': [updateLocationSchema],
  'POST /api/test-clock': [moveSchema],
  'POST /api/users/:id/start-shift': [startShiftSchema],
  'POST /api/users/:id/end-shift': [endShiftSchema],
  'POST /api/users/:id/start-visit': [startVisitSchema],
  'POST /api/users/:id/end-visit': [endVisitSchema],
  'POST /api/check-ins': [checkInSchema],
  'POST /api/check-ins/extend': [extendSchema],
  'POST /api/users/:id/emergency/:alarmId/cancel': [cancelEmergencySchema],
  'PUT /api/users/:id/duress-pin': [duressPinSchema],
  'POST /api/emergency-call': [emergencySchema, testCallSchema],
  'POST /api/activity-logs': [recordEntrySchema],
  'POST /api/alarms/:id/resolve': [resolveGenuineSchema, resolveFalseAlarmSchema, resolveTestSchema],
  'POST /api/check-in-requests': [checkInRequestWorkerSchema, checkInRequestTeamSchema],
  'POST /api/alarms/:id/messages': [alarmMessageSchema],
  'POST /api/profile/alarm-messages': [alarmMessageSchema],
  'POST /api/alarms/:id/notes': [alarmNoteSchema],
  'POST /api/simulate-specific-time/:id': [simulateTimeSchema],
  'POST /api/push/subscribe': [subscribeSchema],
  'POST /api/test-provider/calls/:callSid/accept': [answerSchema],
  'POST /api/test-provider/inbound-sms': [inboundSmsSchema],
  'POST /api/test-reminders/send-test-5min': [reminderTestSchema],
  'POST /api/test-reminders/send-test-2min': [reminderTestSchema],
  'PUT /api/system/sso': [ssoSettingsSchema],
  'POST /api/system/scim-tokens': [createScimTokenSchema],
  'POST /api/api-tokens': [createApiTokenSchema],
  'POST /api/webhooks/endpoints': [createWebhookEndpointSchema],
  'PATCH /api/webhooks/endpoints/:id': [updateWebhookEndpointSchema],
};

export const EDGE_QUERIES: Record<string, z.ZodTypeAny> = {
  'POST /api/users/import': importQuerySchema,
  'GET /api/activity-logs': activityListQuery,
  'GET /api/alarms': alarmListQuery,
  'GET /api/notifications/deliveries': deliveriesQuery,
  'GET /api/workers/active': workerListQuery,
  'GET /api/workers/due': workerListQuery,
  'GET /api/workers/missed': workerListQuery,
  'GET /api/dashboard-data': dashboardQuery,
  'GET /api/events': liveQuery,
  'GET /api/auth/sso/start': ssoStartQuery,
  'GET /api/webhooks/endpoints/:id/deliveries': webhookDeliveriesQuery,
  'GET /api/teams/:id/on-call': onCallAtQuery,
  'GET /api/teams/:id/on-call/timeline': onCallTimelineQuery,
  'GET /api/profile/on-call': onCallTimelineQuery,
};
