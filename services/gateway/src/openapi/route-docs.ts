import { z } from 'zod';
import { lastEventIdHeader } from '../live/live.schema';
import { callSidParam } from '../notifications/notifications.schema';
import { reportQuery } from '../reports/reports.schema';
import { BACKEND_SERVICES } from '../system/system.controller';
import { REDOC_BUNDLE } from './docs-page';
import * as r from './responses';

/** The error statuses the document describes, in the order it lists them. */
export const ERROR_STATUSES = [400, 401, 403, 404, 409, 410, 413, 415, 422, 423, 429, 503] as const;
export type ErrorStatus = (typeof ERROR_STATUSES)[number];

/**
 * What the document says of a route that its decorators and edge schemas cannot: a summary,
 * what it answers, and what it takes beyond EDGE_BODIES and EDGE_QUERIES. Every `/api` route has
 * one (tests/integration/openapi.test.ts), so a new route is documented the day it is added.
 */
export interface RouteDoc {
  summary: string;
  /** Rules and behaviour a caller should know; who may call it is added from the decorators. */
  description?: string;
  /** The JSON answer's schema; absent: any JSON object, described by `returns`. */
  response?: z.ZodTypeAny;
  /** What the successful answer is. */
  returns?: string;
  /** The answer's media type when it is not JSON (and no @Header names it). */
  media?: string;
  /** The success status when the handler writes its own (a redirect). */
  status?: number;
  /** Pages with `X-Next-Cursor`. */
  cursor?: true;
  /** Statuses beyond those every route of its kind may answer (400 with input, 401 and 403 with a session, 404 with an id, 503). */
  errors?: ErrorStatus[];
  /** Path parameters read without a pipe the generator knows. */
  params?: Record<string, z.ZodTypeAny>;
  /** A query the route reads that EDGE_QUERIES cannot hold (it depends on the clock). */
  query?: z.AnyZodObject;
  /** Request headers the route reads. */
  requestHeaders?: z.AnyZodObject;
  /** A body that is not JSON. */
  body?: { media: string; schema: z.ZodTypeAny; description: string };
  /** Answers from the gateway alone: no service behind it can be unavailable. */
  static?: true;
}

export const TAGS = {
  Authentication: 'Signing in and out, with a password, a kiosk PIN or single sign-on',
  Users: 'Accounts: creating, editing, deactivating and importing them',
  Credentials: 'Passwords, PINs and duress PINs',
  Profile: 'Emergency contacts and check-in settings',
  Teams: 'Teams, their monitors, policies and on-call rotas, and admins away',
  Locations: 'The locations a shift can start at',
  Shifts: 'Starting and ending shifts, checking in, and emergencies',
  Workers: "The monitors' lists of workers on shift, due and missed",
  Alarms: 'Missed check-ins and emergencies, and the monitors who answer them',
  Activity: 'The activity log',
  Reports: 'Monthly alarm figures',
  Kiosks: 'Shared terminals at a location',
  Notifications: 'Web push, and the superadmin messaging tools',
  Live: 'Server-Sent Events',
  System: 'Status, configuration, single sign-on settings, provisioning tokens and dead letters',
  Testing: 'Testing tools: deadlines, reminders and the test clock',
  Time: "The server's clock",
  Documentation: 'This document and its reference page',
  'API tokens': "Machines' API tokens",
  Webhooks: "Signed outbound webhooks: the endpoints LWS's events are sent to, and their delivery log",
} as const;
export type Tag = keyof typeof TAGS;

/** Each controller's tag: its feature. */
export const CONTROLLER_TAGS: Record<string, Tag> = {
  AuthController: 'Authentication',
  SsoController: 'Authentication',
  UsersController: 'Users',
  AccountsController: 'Users',
  ImportController: 'Users',
  CredentialsController: 'Credentials',
  ContactsController: 'Profile',
  SettingsController: 'Profile',
  TeamsController: 'Teams',
  OnCallController: 'Teams',
  MyOnCallController: 'Teams',
  AwayController: 'Teams',
  LocationsController: 'Locations',
  ShiftsController: 'Shifts',
  CheckInsController: 'Shifts',
  EmergencyController: 'Shifts',
  OwnEmergencyController: 'Shifts',
  DashboardsController: 'Workers',
  AlarmsController: 'Alarms',
  CheckInRequestsController: 'Alarms',
  OwnAlarmMessagesController: 'Alarms',
  ActivityController: 'Activity',
  ReportsController: 'Reports',
  KiosksController: 'Kiosks',
  PushController: 'Notifications',
  TestProviderController: 'Notifications',
  TestRemindersController: 'Testing',
  TestToolsController: 'Testing',
  TestClockController: 'Testing',
  TimeController: 'Time',
  LiveController: 'Live',
  SystemController: 'System',
  SystemConfigController: 'System',
  SsoSettingsController: 'System',
  ScimTokensController: 'System',
  DeadLettersController: 'System',
  OpenApiController: 'Documentation',
  ApiTokensController: 'API tokens',
  WebhooksController: 'Webhooks',
};

const reports = reportQuery(new Date());
/** The month's default is the current one when asked, not when the document was built. */
const reportsQuery = reports.extend({
  month: reports.shape.month.removeDefault().optional().describe('YYYY-MM; absent: the current month in Europe/London'),
});

const deadLetterId = z
  .string()
  .regex(new RegExp(`^(${BACKEND_SERVICES.join('|')}):[0-9a-fA-F-]{36}$`))
  .describe('The service holding it, a colon, and its uuid');

const idempotencyKey = z.object({
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/)
    .optional()
    .describe('A repeat with the same key answers the first check-in instead of recording another'),
});

/** What the query and header parameters of several routes mean; otherwise their rule says it. */
export const PARAMETER_TEXT: Record<string, string> = {
  cursor: 'The `X-Next-Cursor` of the previous page: the page after it',
  userId: "Only this user's",
  teamId: "Only this team's",
  next: 'A path on this site to land on once signed in',
  dryRun: '`true`: say what each row would do, and change nothing',
  lastEventId: 'The id of the last event received: the stream resumes after it (for clients that cannot send Last-Event-ID)',
  'Last-Event-ID': 'The id of the last event received: the stream resumes after it',
  at: 'The moment asked about, ISO 8601 (absent: now)',
  from: 'The start of the range, ISO 8601 (absent: now)',
  to: 'The end of the range, ISO 8601 (absent: 14 days after `from`)',
};

const workerList = z.array(r.worker);
const ok = r.okResponse;
const PAGE = 'Newest first, a page at a time (`limit`, `cursor`).';

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  // Authentication
  'POST /api/auth/login': {
    summary: 'Sign in with a username and password',
    description: 'Sets the session cookie. Wrong credentials are a 401; repeated failures from one address are a 429.',
    response: r.publicUser,
    returns: 'The signed-in user',
    errors: [429],
  },
  'POST /api/auth/logout': {
    summary: 'Sign out',
    description:
      "Ends the session and clears its cookie. Signed in through the organisation's provider, `providerLogoutUrl` ends that session too.",
    response: z.object({ ok: z.literal(true), redirectTo: z.string(), providerLogoutUrl: z.string().optional() }).strict(),
    returns: 'Where the browser goes next',
  },
  'GET /api/auth/me': { summary: 'The signed-in user', response: r.signedInUser, returns: 'The signed-in user' },
  'POST /api/auth/pin-login': {
    summary: 'Sign in at a kiosk with a PIN',
    description: 'Only from an enrolled kiosk (its device cookie); five wrong PINs lock PIN sign-in for a while.',
    returns: 'The signed-in worker',
    errors: [403, 423, 429],
  },
  'GET /api/auth/sso': {
    summary: 'What single sign-on the login page offers',
    returns: 'Whether single sign-on is on, and its button text',
  },
  'GET /api/auth/sso/start': {
    summary: "Start single sign-on: a redirect to the organisation's provider",
    status: 302,
    returns: 'A redirect to the provider (or back to the login page with `sso_error` when it cannot start)',
  },
  'GET /api/auth/sso/callback': {
    summary: "Where the organisation's provider sends the browser back",
    description: 'Opens the session and redirects to where the sign-in started; a refused or expired sign-in goes back to the login page.',
    status: 302,
    returns: 'A redirect into LWS, or to the login page with `sso_error`',
  },

  // Users
  'POST /api/users': {
    summary: 'Create an account',
    description:
      'Admins create workers (in their teams); a superadmin also creates admins. Without a chosen PIN one is drawn and shown this once.',
    response: z
      .object({ user: r.publicUser.extend({ teamId: z.number().int().optional() }), generatedPin: z.string().optional() })
      .strict(),
    returns: 'The account, and its generated PIN when none was chosen',
    errors: [409],
  },
  'GET /api/users/:id/with-relations': {
    summary: 'An account with its settings, contacts, team and shift',
    response: r.userWithRelations,
    returns: 'The account',
  },
  'PATCH /api/users/:id': {
    summary: "Change an account's profile, PIN or team",
    description:
      'One of three changes, each sent alone: the profile (name, phone, medical information, language), the PIN (current PIN and the new one, self only) or the team (superadmin only).',
    returns: 'The account as changed',
    errors: [423],
  },
  'DELETE /api/users/:id': {
    summary: 'Delete an account',
    description: 'Every session of the account ends with it.',
    response: ok,
    errors: [409],
  },
  'POST /api/users/:id/deactivate': {
    summary: 'Deactivate an account',
    description: 'Every session ends, a shift in progress ends and monitors are told. The account stays listed so it can be reactivated.',
    response: z.object({ ok: z.literal(true), changed: z.boolean() }).strict(),
    errors: [409],
  },
  'POST /api/users/:id/reactivate': {
    summary: 'Reactivate an account',
    response: z.object({ ok: z.literal(true), changed: z.boolean() }).strict(),
  },
  'GET /api/worker-accounts': {
    summary: 'Accounts with their contacts and shift state',
    description:
      "Admins see their teams' workers; the superadmin every account, with whether each has a password and a PIN. In name order.",
    response: z.array(r.account),
    returns: 'The accounts',
  },
  'GET /api/data/workers': {
    summary: 'Workers',
    description: "The superadmin sees every worker; an admin their teams' workers.",
    response: z.array(r.user),
    returns: 'The workers',
  },
  'POST /api/users/import': {
    summary: 'Import accounts from a CSV file',
    description:
      "Up to 10,000 rows. `dryRun=true` says what each row would do and changes nothing; otherwise every row is applied or none (422 with the same table when a row is wrong). Rows match accounts by username, so a repeat changes nothing. New accounts' passwords and PINs come back once.",
    body: { media: 'text/csv', schema: z.string(), description: 'The accounts, one per row, with a header row' },
    returns: 'Each row and what it did (or would do)',
    errors: [409, 413, 415, 422],
  },

  // Credentials
  'POST /api/auth/change-password': {
    summary: 'Change your own password',
    description: 'Every other session of the user ends. Five wrong current passwords make it wait.',
    response: z.object({ message: z.string() }).strict(),
    errors: [429],
  },
  'POST /api/users/:id/verify-pin': {
    summary: 'Check your own PIN',
    description: 'The duress PIN answers exactly as the PIN does.',
    response: z.object({ valid: z.literal(true) }).strict(),
    errors: [423],
  },
  'PUT /api/users/:id/duress-pin': {
    summary: 'Set or remove your own duress PIN',
    description: 'With the current PIN. It must differ from the PIN; null removes it.',
    response: z.object({ duressPinSet: z.boolean() }).strict(),
    errors: [423],
  },
  'POST /api/users/:id/reset-pin': {
    summary: 'Give a user a new random PIN',
    description: 'Shown once; it also lifts a PIN lockout.',
    response: z.object({ pin: z.string() }).strict(),
  },
  'POST /api/users/:id/reset-password': {
    summary: 'Give a user a one-time password',
    description: "Shown once; the user's sessions end.",
    response: z.object({ temporaryPassword: z.string() }).strict(),
  },

  // Profile
  'GET /api/users/:id/emergency-contacts': {
    summary: "A user's emergency contacts",
    response: z.array(r.contact),
    returns: 'The contacts',
  },
  'POST /api/emergency-contacts': { summary: 'Add an emergency contact', response: r.contact, returns: 'The contact' },
  'PATCH /api/emergency-contacts/:id': { summary: 'Change an emergency contact', response: r.contact, returns: 'The contact' },
  'DELETE /api/emergency-contacts/:id': { summary: 'Remove an emergency contact', response: ok },
  'PATCH /api/users/:id/settings': { summary: "Save a user's check-in settings", response: r.settings, returns: 'The settings' },
  'POST /api/settings': {
    summary: "Save a user's check-in settings (user in the body)",
    description: 'The same as `PATCH /api/users/{id}/settings`, for clients that send the user id in the body.',
    response: r.settings,
    returns: 'The settings',
  },

  // Teams
  'GET /api/teams': {
    summary: 'Teams',
    description: 'The superadmin sees every team; an admin the teams they monitor or deputise for.',
    response: z.array(r.team),
    returns: 'The teams',
  },
  'POST /api/teams': { summary: 'Create a team', response: r.team, returns: 'The team', errors: [409] },
  'GET /api/teams/:id': { summary: 'A team', response: r.team, returns: 'The team' },
  'GET /api/teams/:id/members': {
    summary: "A team's workers",
    response: z.array(z.object({ id: z.number().int(), username: z.string(), name: z.string() }).strict()),
    returns: 'The members',
  },
  'PATCH /api/teams/:id': {
    summary: 'Change a team',
    description: 'Any of the fields; those not sent keep their value.',
    response: r.team,
    returns: 'The team',
    errors: [409],
  },
  'DELETE /api/teams/:id': { summary: 'Delete a team', description: 'Only a team without workers.', errors: [409] },
  'GET /api/teams/:id/on-call': {
    summary: 'Who is on call for a team',
    description:
      "At `at` (absent: now): who is on call (the first layer with someone then, overrides and away deputies applied), the next layer's person, and who takes over. `hasRota` false: the team has no rota; its alarms go to its monitors in order.",
    response: r.onCallNow,
    returns: 'Who is on call',
  },
  'GET /api/teams/:id/on-call/timeline': {
    summary: "A team's on-call timeline",
    description:
      "From `from` to `to` (at most 62 days; absent: the next 14 days): each layer's stretches, the final timeline and its gaps.",
    response: r.onCallTimeline,
    returns: 'The timeline',
  },
  'PUT /api/teams/:id/on-call-schedule': {
    summary: "Set a team's on-call rota",
    description:
      "The rota (`schedule`: time zone and layers in priority order; null: none) and `coverRequired`. Everyone on it must be one of the team's monitors or deputies. Its overrides stay.",
    response: r.team,
    returns: 'The team',
  },
  'POST /api/teams/:id/on-call/overrides': {
    summary: 'Cover a stretch of a rota layer',
    description: "Someone covers a layer from `start` to `end` (at most 31 days), in place of whoever's turn it is.",
    response: r.onCallOverride,
    returns: 'The override',
  },
  'GET /api/profile/on-call': {
    summary: 'My on-call stretches',
    description:
      "The caller's own stretches from `from` to `to` (the next 14 days by default, at most 62), across the teams whose rotas name them, and whether they have a calendar feed.",
    response: r.myOnCall,
    returns: 'Their stretches',
  },
  'POST /api/profile/on-call/feed': {
    summary: 'Make my on-call calendar feed',
    description: 'A new, unguessable address for calendar apps (shown once; the old one stops working).',
    response: z.object({ path: z.string().describe("The feed's path on this site: /api/on-call/feed/{token}") }).strict(),
    returns: "The feed's address",
  },
  'DELETE /api/profile/on-call/feed': {
    summary: 'Revoke my on-call calendar feed',
    response: z.object({ revoked: z.boolean().describe('Whether there was one') }).strict(),
  },
  'GET /api/on-call/feed/:token': {
    summary: "An admin's on-call calendar (iCalendar)",
    description: 'For calendar apps, without a session: the token is the key. From a week ago to 55 days ahead. Any other token is a 404.',
    media: 'text/calendar',
    returns: 'The calendar, RFC 5545',
    params: { token: z.string().describe("The feed's token, as its address gives it") },
  },
  'DELETE /api/teams/:id/on-call/overrides/:overrideId': {
    summary: 'Remove a rota override',
    response: ok,
    params: { overrideId: z.string().uuid().describe("The override's id") },
  },
  'POST /api/users/:id/away': {
    summary: 'Set an admin away (or back)',
    description: "While away, their deputies take their place as monitors. An admin sets their own; the superadmin anyone's.",
    response: z.object({ awayUntil: z.string().nullable() }).strict(),
  },

  // Locations
  'GET /api/location-options': {
    summary: 'Locations',
    description: 'Everyone signed in reads them all; for an admin each says whether they may change it.',
    response: z.array(r.listedLocation),
    returns: 'The locations',
  },
  'POST /api/location-options': { summary: 'Add a location', response: r.location, returns: 'The location', errors: [409] },
  'PATCH /api/location-options/:id': { summary: 'Change a location', response: r.location, returns: 'The location', errors: [409] },
  'DELETE /api/location-options/:id': { summary: 'Remove a location', response: ok },

  // Shifts
  'POST /api/users/:id/start-shift': {
    summary: 'Start a shift',
    description:
      "At an active location. Starting again while on shift answers the shift in progress. When the worker's team needs cover and nobody is on call for part of the shift's first 8 hours, the team's `coverRequired` decides: `refuse` answers 409 naming `cover`; `warn` starts the shift with `coverWarning`.",
    response: r.startedShift,
    returns: 'The worker, on shift',
    errors: [409],
  },
  'POST /api/users/:id/end-shift': {
    summary: 'End a shift',
    description:
      'With the PIN (400 wrong, 423 locked: nothing ends). The duress PIN ends it as the PIN does and raises a silent emergency.',
    response: r.worker,
    returns: 'The worker, off shift',
    errors: [423],
  },
  'POST /api/users/:id/start-visit': {
    summary: 'Start a timed visit',
    description:
      "On shift: where (an address or a location), for how long (5-240 minutes), and an optional note sealed until an alarm of the visit opens. The visit's end becomes the deadline when sooner than the regular one; its reminders and alarm follow the team's policy, marked as a visit alarm. Starting again while one is on answers the visit in progress; 409 off shift.",
    response: r.checkInExtended,
    returns: 'The worker, on the visit',
    errors: [409],
  },
  'POST /api/users/:id/end-visit': {
    summary: 'End a timed visit',
    description:
      'With the PIN (400 wrong, 423 locked: nothing ends): a check-in, and the regular interval again. The duress PIN ends it as the PIN does and raises a silent emergency of the visit. 409 when no visit is on.',
    response: r.checkInExtended,
    returns: 'The worker, back on the regular interval',
    errors: [409, 423],
  },
  'POST /api/users/:id/force-clock-out': { summary: "End a worker's shift for them", response: r.worker, returns: 'The worker, off shift' },
  'GET /api/users/:id/latest-check-in': {
    summary: 'The latest check-in of the current shift',
    response: r.orNull(r.latestCheckIn),
    returns: 'The check-in, or null (off shift, or none yet)',
  },
  'POST /api/check-ins': {
    summary: "Check in: I'm safe",
    description:
      'With the PIN (400 wrong, 423 locked: nothing recorded). A repeat within 5 seconds, or with an Idempotency-Key already used, answers the first check-in. `madeAt` dates a check-in the app kept while offline (409 when the next deadline has passed since).',
    requestHeaders: idempotencyKey,
    response: r.checkInRecorded,
    returns: 'The check-in and when the next one is due',
    errors: [409, 423],
  },
  'POST /api/check-ins/extend': {
    summary: 'Ask for 15 more minutes',
    description: "The worker's current deadline moves on 15 minutes, within what the shift allows (409 naming why not).",
    response: r.checkInExtended,
    returns: 'The worker with the new deadline',
    errors: [409],
  },
  'POST /api/emergency-call': {
    summary: 'Raise an emergency',
    description:
      "The emergency is raised at once; the answer names who the worker is put through to. The superadmin's test call (`phoneNumber`) calls that number through the real voice flow instead.",
    response: z.union([r.emergencyRaised, r.testCallStarted]),
    returns: 'Who will be contacted, or the test call',
  },
  'GET /api/users/:id/emergency': {
    summary: 'Your own open emergency',
    response: r.currentEmergency,
    returns: 'The emergency, or null',
  },
  'POST /api/users/:id/emergency/:alarmId/cancel': {
    summary: 'Say you are safe now (mark an emergency safe)',
    description:
      'With the PIN (400 wrong, 423 locked). Escalation stops and the emergency waits for a monitor to confirm it. The duress PIN answers the same while the emergency goes on.',
    params: { alarmId: z.string().uuid().describe("The emergency's alarm ID") },
    response: r.emergencyMarkedSafe,
    returns: 'The emergency',
    errors: [423],
  },

  // Workers
  'GET /api/workers/active': {
    summary: 'Workers on shift',
    response: workerList,
    returns: 'A page of workers',
    cursor: true,
  },
  'GET /api/workers/due': {
    summary: 'Workers due to check in within 15 minutes',
    response: workerList,
    returns: 'A page of workers',
    cursor: true,
  },
  'GET /api/workers/missed': {
    summary: 'Workers whose check-in is overdue',
    response: workerList,
    returns: 'A page of workers',
    cursor: true,
  },
  'GET /api/dashboard-data': {
    summary: 'The first page of each list at one instant',
    response: z.object({ active: workerList, due: workerList, missed: workerList, timestamp: z.string() }).strict(),
    returns: 'The three lists and the instant',
  },

  // Alarms
  'GET /api/alarms': {
    summary: 'Alarms',
    description: `${PAGE} Open (not yet resolved) unless \`open=false\`. An admin sees their teams' alarms.`,
    response: z.array(r.alarm),
    returns: 'A page of alarms',
    cursor: true,
  },
  'POST /api/alarms/:id/acknowledge': {
    summary: 'Acknowledge an alarm',
    description: 'The caller takes the alarm; acknowledging again answers the first acknowledgement.',
    response: r.alarm,
    returns: 'The alarm',
  },
  'POST /api/alarms/:id/resolve': {
    summary: 'Resolve an alarm',
    description:
      'Closes it with its outcome and a note, acknowledging it too if nobody had: `genuine` with a `severity`, `false_alarm` with a `reason`, or `test`.',
    response: r.alarm,
    returns: 'The alarm',
    errors: [409],
  },
  'POST /api/alarms/:id/notes': {
    summary: "Add a note to an alarm's history",
    description: 'Open or resolved: what the monitor or the receiving centre did or found. Monitors read it; the worker never does.',
    response: r.alarm,
    returns: 'The alarm',
  },

  'POST /api/alarms/:id/visit-note': {
    summary: "Read the sealed note of the alarm's visit",
    description:
      "For an alarm opened on a timed visit (its timer ran out, or an emergency during it), to those who may see the alarm. Every read is on the activity log and the alarm's history, naming who read it. 404 when the alarm has no sealed note; 410 once the note was deleted with the visit's data, 30 days after the shift ended.",
    response: r.visitNote,
    returns: 'The note',
    errors: [404, 410],
  },
  'POST /api/alarms/:id/messages': {
    summary: 'Send the worker a message',
    description:
      "While the alarm is open: by push at once, and by SMS when the worker's screen has not shown it within a minute; a line on the alarm's history. 409 when the alarm is resolved, and on a duress alarm or one cancelled with the duress PIN, whose worker is never written to (the answer says why).",
    response: r.alarm,
    returns: 'The alarm, with its messages',
    errors: [409],
  },
  'GET /api/profile/alarm-messages': {
    summary: 'The messages of my open alarm',
    description: "The signed-in worker's thread with the monitors about their open alarm (never a duress alarm), or `thread: null`.",
    response: r.workerThread,
    returns: 'The thread, or null',
  },
  'POST /api/profile/alarm-messages': {
    summary: 'Answer the monitors',
    description:
      "A message from the worker on their open alarm's thread: the alarm panel shows it live. 409 when no alarm of theirs is open.",
    response: r.workerThread,
    returns: 'The thread',
    errors: [409],
  },
  'POST /api/profile/alarm-messages/seen': {
    summary: 'My screen showed the messages',
    description: "The monitors' messages so far are seen: no SMS of them follows.",
    response: r.workerThread,
    returns: 'The thread, or null',
  },
  'POST /api/check-in-requests': {
    summary: 'Ask a worker, or a team, to check in now',
    description:
      'Asks one worker (`userId`) or every worker of a team on shift (`teamId`) to check in: a push at once, an SMS a minute later, and a missed check-in alarm when no check-in comes within `answerWithinMinutes` (5 by default). Any check-in made after the request answers it. 409 when the worker, or everyone in the team, is off shift.',
    response: r.checkInRequestBatch,
    returns: 'The request, one line per worker asked',
    errors: [404, 409],
  },
  'GET /api/check-in-requests': {
    summary: 'Requests to check in of the last day',
    description: 'Newest first, at most 20; an admin sees the workers of their teams only.',
    response: z.array(r.checkInRequestBatch),
    returns: 'The requests',
  },
  'GET /api/check-in-requests/:id': {
    summary: 'One request to check in',
    description: 'Who has answered so far ("14 of 17 safe").',
    response: r.checkInRequestBatch,
    returns: 'The request',
    errors: [404],
  },
  'GET /api/profile/check-in-request': {
    summary: 'My request to check in',
    description: "The signed-in worker's request still waiting for their check-in, or `request: null`.",
    response: r.ownCheckInRequest,
    returns: 'The request, or null',
  },

  // Activity
  'GET /api/activity-logs': {
    summary: 'Activity log entries',
    description: `${PAGE} The superadmin reads everyone's; an admin their teams' workers' and their own; a worker their own.`,
    response: z.array(r.activityEntry),
    returns: 'A page of entries',
    cursor: true,
  },
  'POST /api/activity-logs': {
    summary: 'Record an activity log entry',
    description:
      "The username is the account's own whatever the body says. A worker records only check_in, start_shift, end_shift and emergency entries.",
    response: r.activityEntry,
    returns: 'The entry',
  },

  // Reports
  'GET /api/reports/alarms': {
    summary: 'Monthly alarm figures',
    description: "An admin's figures count only their teams' alarms.",
    query: reportsQuery,
    returns: 'The month, its figures by alarm kind, and by team',
  },
  'GET /api/reports/alarms.csv': {
    summary: 'Monthly alarm figures as CSV',
    query: reportsQuery,
    media: 'text/csv',
    returns: 'The report, RFC 4180',
  },

  // Kiosks
  'POST /api/kiosks': {
    summary: 'Enrol this browser as a kiosk',
    description: 'Sets the kiosk device cookie on the browser that sends it.',
    returns: 'The kiosk',
  },
  'GET /api/kiosks': { summary: 'Kiosks', response: r.anyObjects, returns: 'The kiosks' },
  'GET /api/kiosks/current': {
    summary: 'Whether this browser is an enrolled kiosk',
    response: z.object({ enrolled: z.boolean(), name: z.string().optional(), location: z.string().optional() }).strict(),
  },
  'DELETE /api/kiosks/:id': { summary: 'Revoke a kiosk', description: 'Whoever is signed in at it is signed out now.', response: ok },
  'GET /api/kiosks/roster': {
    summary: 'Who may sign in at this kiosk',
    description: 'Only an enrolled kiosk (its device cookie) may ask.',
    returns: "The kiosk, its location and its workers' labels",
    errors: [403],
  },

  // Notifications
  'GET /api/push/public-key': { summary: 'The web push (VAPID) public key', returns: 'The key, base64url' },
  'POST /api/push/subscribe': {
    summary: "Store this browser's push subscription",
    response: z.object({ subscriptionId: z.string() }).strict(),
  },
  'GET /api/notifications/deliveries': { summary: 'The delivery log of texts, calls and pushes', returns: 'The deliveries' },
  'GET /api/test-provider/calls': {
    summary: "The local test provider's calls",
    description: 'Embedded mode and tests only: 404 when a real Twilio account is configured.',
    returns: 'The calls',
  },
  'POST /api/test-provider/calls/:callSid/accept': {
    summary: "Answer a test provider's call",
    params: { callSid: callSidParam.describe("The call's SID") },
    returns: 'What the call did',
  },
  'POST /api/test-provider/calls/:callSid/ignore': {
    summary: "Let a test provider's call ring out",
    params: { callSid: callSidParam.describe("The call's SID") },
    returns: 'What the call did',
  },
  'POST /api/test-provider/inbound-sms': {
    summary: 'Send a text to LWS through the test provider',
    response: z.object({ reply: z.string().nullable() }).strict(),
    returns: 'What LWS texted back',
  },

  // Testing
  'POST /api/test-reminders/send-test-5min': { summary: 'Text a worker the 5-minute reminder now', returns: "The provider's answer" },
  'POST /api/test-reminders/send-test-2min': { summary: 'Text a worker the 2-minute reminder now', returns: "The provider's answer" },
  'POST /api/test-whatsapp-reminders/:userId': { summary: 'Send a worker both reminders over WhatsApp', returns: "The provider's answers" },
  'POST /api/simulate-specific-time/:id': {
    summary: "Move a worker's next check-in",
    description: 'Due `minutesUntilDue` minutes from now; escalation acts on it as on any deadline.',
    response: z.object({ nextCheckInTime: z.string().nullable(), user: r.worker }).strict(),
    errors: [409],
  },
  'POST /api/reset-check-in-timer/:id': {
    summary: "Move a worker's next check-in to the top of the next hour",
    response: z.object({ nextCheckInTime: z.string().nullable(), user: r.worker }).strict(),
    errors: [409],
  },
  'POST /api/simulate-check-in-due/:id': {
    summary: "Make a worker's check-in due now",
    description: 'The missed check-in fires as it would for real.',
    response: z.object({ nextCheckInTime: z.string().nullable(), user: r.worker }).strict(),
    errors: [409],
  },
  'GET /api/test-reminders/status': { summary: 'Who is on shift and which reminders are about to go out' },
  'POST /api/process-missed-check-ins': {
    summary: "Run whatever is due of the caller's now",
    description: "Escalation's own timers already run every due step within seconds.",
  },
  'GET /api/test-clock': {
    summary: "The test clock's time and offset",
    response: z.object({ now: z.string(), offsetMs: z.number() }).strict(),
    static: true,
  },
  'POST /api/test-clock': {
    summary: 'Move the test clock',
    description: "Moves every service's clock in this process, at most a year either way.",
    response: z.object({ now: z.string(), offsetMs: z.number() }).strict(),
    static: true,
  },

  // Time
  'GET /api/time': {
    summary: "The server's time",
    description: 'Browsers correct their countdowns by the difference.',
    response: z.object({ now: z.string() }).strict(),
    static: true,
  },

  // Live
  'GET /api/events': {
    summary: 'Live updates (Server-Sent Events)',
    description:
      "A stream of what concerns the caller: a worker their own events, an admin their teams', the superadmin everything. It ends when the session does. `Last-Event-ID` (or `lastEventId`) resumes after the last event received.",
    requestHeaders: lastEventIdHeader,
    media: 'text/event-stream',
    returns: 'The event stream',
    errors: [429],
  },

  // System
  'GET /api/system/status': {
    summary: 'Whether each service is ready',
    response: z.object({ services: z.record(z.string(), z.string()), allReady: z.boolean() }).strict(),
  },
  'GET /api/system-config': {
    summary: 'The emergency numbers and call timeout in force',
    response: z.array(z.object({ key: z.string(), value: z.string() }).strict()),
  },
  'GET /api/system/sso': { summary: 'The single sign-on settings', description: 'The client secret is never read back.' },
  'PUT /api/system/sso': { summary: 'Change the single sign-on settings', errors: [409] },
  'GET /api/system/scim-tokens': { summary: 'Provisioning (SCIM) tokens', description: 'Never the tokens themselves.' },
  'POST /api/system/scim-tokens': {
    summary: 'Create a provisioning (SCIM) token',
    description: 'The secret is in this answer only: LWS keeps its hash.',
    returns: 'The token and its secret',
  },
  'DELETE /api/system/scim-tokens/:id': { summary: 'Revoke a provisioning (SCIM) token' },
  'GET /api/dead-letters': {
    summary: 'Dead letters across every service',
    description: 'Events a consumer could not apply and events the bus refused.',
  },
  'POST /api/dead-letters/:id/replay': {
    summary: 'Replay a dead letter',
    description: 'Recorded in the activity log.',
    params: { id: deadLetterId },
  },
  'POST /api/dead-letters/:id/discard': {
    summary: 'Discard a dead letter',
    description: 'Recorded in the activity log.',
    params: { id: deadLetterId },
  },

  // Documentation
  'GET /api/openapi.json': { summary: 'This document', returns: 'The OpenAPI 3.1 document', static: true },
  'GET /api/docs': { summary: 'The API reference page', returns: 'The page', static: true },
  'GET /api/docs/:asset': {
    summary: "The reference page's scripts",
    params: { asset: z.enum([REDOC_BUNDLE, 'start.js']).describe('A script of the page') },
    media: 'text/javascript',
    returns: 'The script',
    static: true,
  },

  // API tokens
  'GET /api/api-tokens': { summary: 'API tokens', description: 'Never the tokens themselves.' },
  'POST /api/api-tokens': {
    summary: 'Create an API token',
    description: 'The token is in this answer only: LWS keeps its hash.',
    returns: 'The token and its secret',
  },
  'DELETE /api/api-tokens/:id': { summary: 'Revoke an API token' },

  // Webhooks
  'GET /api/webhooks/event-types': { summary: 'The event types an endpoint may receive', response: r.anyObjects },
  'GET /api/webhooks/endpoints': {
    summary: 'Webhook endpoints',
    description: "An admin sees their teams' endpoints, the superadmin every one. Never a signing secret.",
    response: r.anyObjects,
  },
  'POST /api/webhooks/endpoints': {
    summary: 'Add a webhook endpoint',
    description: 'The signing secret (`whsec_…`) is in this answer only.',
    returns: 'The endpoint and its signing secret',
  },
  'PATCH /api/webhooks/endpoints/:id': {
    summary: 'Change a webhook endpoint',
    description: 'Disabling it cancels what waits for it; enabling it again sends new events only.',
  },
  'POST /api/webhooks/endpoints/:id/rotate-secret': {
    summary: "Rotate a webhook endpoint's signing secret",
    description: 'The new secret is in this answer only; the old one signs beside it for 24 hours.',
    returns: 'The endpoint and its new signing secret',
  },
  'DELETE /api/webhooks/endpoints/:id': { summary: 'Remove a webhook endpoint' },
  'POST /api/webhooks/endpoints/:id/test': {
    summary: 'Send a test event to a webhook endpoint',
    description: 'Sends `webhook.test.v1` now; its delivery shows in the log like any other.',
    returns: 'The test delivery, accepted for sending',
  },
  'GET /api/webhooks/endpoints/:id/deliveries': {
    summary: "A webhook endpoint's delivery log",
    description: 'Newest first, a page at a time (`limit`, `cursor`).',
    returns: 'A page of deliveries',
    response: r.anyObjects,
    cursor: true,
  },
  'POST /api/webhooks/deliveries/:id/replay': {
    summary: 'Send a webhook delivery again',
    description: 'A failed or canceled delivery goes again at once, on a new run of the retry schedule.',
  },
};
