import request from 'supertest';
import type { INestApplication } from '@nestjs/common';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, nextMobile, signIn, superadminOf, type Account } from './support/accounts';
import { servedRoutes } from './support/routes';
import { API_SCOPES, type ApiScope } from '@lws/schemas';

/**
 * Spec section 6 on the server, endpoint by endpoint: every route the gateway serves × {anonymous,
 * worker, admin, superadmin}. A worker acts only on itself; an admin on itself and on workers; a
 * superadmin on anyone. The first test fails when the gateway serves a route this table lacks
 * (or the table names one it no longer serves), so a new endpoint cannot ship without its row.
 */

type Who = 'anonymous' | 'worker' | 'admin' | 'superadmin' | 'teamAdmin' | 'deputy';

/**
 * What `:id` stands for. Fixtures: worker, otherWorker, admin, otherAdmin (all in the team
 * "Default"), superadmin, teamAdmin, who monitors only another team ("Elsewhere"), and deputy, who
 * only deputises for admin in "Default".
 */
type Target =
  | Fixture
  | 'new worker'
  | 'new admin'
  | `contact of ${Fixture}`
  | `new contact of ${Fixture}`
  | 'new kiosk'
  | 'new location'
  | 'shared location'
  | 'default team'
  | 'new team';
type Fixture = 'worker' | 'otherWorker' | 'admin' | 'otherAdmin' | 'superadmin' | 'teamAdmin' | 'deputy';

interface Case {
  who: Who;
  on?: Target;
  /** A body, or one built from the resolved `:id` target. */
  body?: object | ((targetId: number) => object);
  expect: number;
  /** The call ends the caller's session (logout), so it runs on a fresh sign-in. */
  fresh?: boolean;
}

const ROLES: Who[] = ['anonymous', 'worker', 'admin', 'superadmin'];
/** The column teams add: an admin who monitors another team than the fixtures'. */
const OTHER_TEAM = 'monitor of another team';
type Extra = Pick<Case, 'body' | 'fresh' | 'on'>;

/** Same answer whoever asks (public routes). */
const everyone = (status: number, extra: Extra = {}): Case[] => ROLES.map((who) => ({ who, expect: status, ...extra }));
/** Any signed-in user. */
const signedIn = (status: number, extra: Extra = {}): Case[] =>
  ROLES.map((who) => ({ who, expect: who === 'anonymous' ? 401 : status, ...extra }));
/** Admins and the superadmin. */
const managers = (status: number, extra: Extra = {}): Case[] =>
  ROLES.map((who) => ({ who, expect: who === 'anonymous' ? 401 : who === 'worker' ? 403 : status, ...extra }));
/** The superadmin only. */
const superadminOnly = (status: number, extra: Extra = {}): Case[] =>
  ROLES.map((who) => ({ who, expect: who === 'anonymous' ? 401 : who === 'superadmin' ? status : 403, ...extra }));

/** The access rule on a user id: self, admins on workers, the superadmin on anyone. */
const accessRule = (status: number, extra: Omit<Extra, 'on'> = {}): Case[] => [
  { who: 'anonymous', on: 'worker', expect: 401, ...extra },
  { who: 'worker', on: 'worker', expect: status, ...extra },
  { who: 'worker', on: 'otherWorker', expect: 403, ...extra },
  { who: 'admin', on: 'admin', expect: status, ...extra },
  { who: 'admin', on: 'worker', expect: status, ...extra },
  { who: 'admin', on: 'otherAdmin', expect: 403, ...extra },
  { who: 'admin', on: 'superadmin', expect: 403, ...extra },
  { who: 'superadmin', on: 'otherAdmin', expect: status, ...extra },
  { who: 'superadmin', on: 'worker', expect: status, ...extra },
];

/** A worker's own shift, check-ins and emergency calls: the worker themselves, never another role. */
const ownShift = (status: number, extra: Omit<Extra, 'on'> = {}): Case[] => [
  { who: 'anonymous', on: 'worker', expect: 401, ...extra },
  { who: 'worker', on: 'worker', expect: status, ...extra },
  { who: 'worker', on: 'otherWorker', expect: 403, ...extra },
  { who: 'admin', on: 'worker', expect: 403, ...extra },
  { who: 'admin', on: 'admin', expect: 403, ...extra },
  { who: 'superadmin', on: 'superadmin', expect: 403, ...extra },
];

/** PIN steps: the account holder only, whatever the role. */
const selfOnly = (status: number, extra: Omit<Extra, 'on'> = {}): Case[] => [
  { who: 'anonymous', on: 'worker', expect: 401, ...extra },
  { who: 'worker', on: 'worker', expect: status, ...extra },
  { who: 'worker', on: 'otherWorker', expect: 403, ...extra },
  { who: 'admin', on: 'worker', expect: 403, ...extra },
  { who: 'superadmin', on: 'otherAdmin', expect: 403, ...extra },
];

/** The access rule on the contact's user; a contact the caller may not reach answers like a missing one. */
const contactRule = (status: number, fresh: boolean, extra: Omit<Extra, 'on'> = {}): Case[] => {
  const of = (f: Fixture): Target => (fresh ? `new contact of ${f}` : `contact of ${f}`);
  return [
    { who: 'anonymous', on: of('worker'), expect: 401, ...extra },
    { who: 'worker', on: of('worker'), expect: status, ...extra },
    { who: 'worker', on: of('otherWorker'), expect: 404, ...extra },
    { who: 'admin', on: of('admin'), expect: status, ...extra },
    { who: 'admin', on: of('worker'), expect: status, ...extra },
    { who: 'admin', on: of('otherAdmin'), expect: 404, ...extra },
    { who: 'admin', on: of('superadmin'), expect: 404, ...extra },
    { who: 'superadmin', on: of('otherAdmin'), expect: status, ...extra },
  ];
};

const contact = (userId: number) => ({ userId, name: 'Matrix Contact', phone: '+447911123456', relation: 'Friend' });
const settings = { primaryContact: '+447911123456', checkInInterval: 60 };
const newUser = (role: 'worker' | 'admin') => () => ({
  username: `m${Math.random().toString(36).slice(2, 10)}`,
  password: 'Secret1pass',
  name: 'Matrix User',
  phone: nextMobile(),
  role,
});

const MATRIX: Record<string, Case[]> = {
  'GET /healthz': everyone(200),
  'GET /readyz': everyone(200),

  'POST /api/auth/login': everyone(400, { body: {} }),
  'POST /api/auth/logout': everyone(200, { body: {}, fresh: true }),
  'GET /api/auth/me': signedIn(200),
  'POST /api/auth/change-password': signedIn(400, { body: {} }),
  // Only an enrolled kiosk browser may PIN-login; none of these callers holds a kiosk cookie.
  'POST /api/auth/pin-login': everyone(403, { body: { userId: 1, pin: '1234' } }),
  // Single sign-on: what the login page offers, and its redirects (off here: back to /login).
  'GET /api/auth/sso': everyone(200),
  'GET /api/auth/sso/start': everyone(302),
  'GET /api/auth/sso/callback': everyone(302),

  'GET /api/system/status': superadminOnly(200),
  'GET /api/system/sso': superadminOnly(200),
  'PUT /api/system/sso': superadminOnly(400, { body: {} }),
  'GET /api/system/scim-tokens': superadminOnly(200),
  'POST /api/system/scim-tokens': superadminOnly(400, { body: {} }),
  // No :id target: the path carries "undefined", so a caller let through gets 400.
  'DELETE /api/system/scim-tokens/:id': superadminOnly(400),
  // No :id target: the path carries "undefined", not a dead letter id, so a caller let through gets 400.
  'GET /api/dead-letters': superadminOnly(200),
  // Machines' API tokens: admins make their own, the superadmin sees everyone's.
  'GET /api/api-tokens': managers(200),
  'POST /api/api-tokens': managers(400, { body: {} }),
  'DELETE /api/api-tokens/:id': managers(400),
  // Webhook endpoints: admins their teams', the superadmin every one ("undefined" is no endpoint id: 400).
  'GET /api/webhooks/event-types': managers(200),
  'GET /api/webhooks/endpoints': managers(200),
  'POST /api/webhooks/endpoints': managers(400, { body: {} }),
  'PATCH /api/webhooks/endpoints/:id': managers(400, { body: {} }),
  'POST /api/webhooks/endpoints/:id/rotate-secret': managers(400),
  'DELETE /api/webhooks/endpoints/:id': managers(400),
  'POST /api/webhooks/endpoints/:id/test': managers(400),
  'GET /api/webhooks/endpoints/:id/deliveries': managers(400),
  'POST /api/webhooks/deliveries/:id/replay': managers(400),
  'POST /api/dead-letters/:id/replay': superadminOnly(400),
  'POST /api/dead-letters/:id/discard': superadminOnly(400),

  'POST /api/users': [
    { who: 'anonymous', body: newUser('worker'), expect: 401 },
    { who: 'worker', body: newUser('worker'), expect: 403 },
    { who: 'admin', body: newUser('worker'), expect: 201 },
    { who: 'admin', body: newUser('admin'), expect: 201 },
    { who: 'superadmin', body: newUser('admin'), expect: 201 },
    // A deputy adds workers to the team they stand in for, but mints no monitors.
    { who: 'deputy', body: newUser('worker'), expect: 201 },
    { who: 'deputy', body: newUser('admin'), expect: 403 },
  ],
  'GET /api/worker-accounts': managers(200),
  'GET /api/data/workers': managers(200),
  // A JSON body is no file: the superadmin, let through, is told to send text/csv.
  'POST /api/users/import': superadminOnly(415, { body: {} }),
  'GET /api/users/:id/with-relations': accessRule(200),
  'PATCH /api/users/:id': [
    ...accessRule(200, { body: { medicalInfo: 'Checked by the authorization matrix' } }),
    // The PIN branch of the same route; an invalid PIN shows the call got past authorization.
    ...selfOnly(400, { body: { pinCode: '12' } }),
  ],
  'DELETE /api/users/:id': [
    { who: 'anonymous', on: 'new worker', expect: 401 },
    { who: 'worker', on: 'worker', expect: 403 },
    { who: 'worker', on: 'otherWorker', expect: 403 },
    { who: 'admin', on: 'new worker', expect: 200 },
    { who: 'admin', on: 'admin', expect: 400 },
    { who: 'admin', on: 'otherAdmin', expect: 403 },
    { who: 'admin', on: 'superadmin', expect: 403 },
    { who: 'superadmin', on: 'new admin', expect: 200 },
    { who: 'superadmin', on: 'superadmin', expect: 400 },
  ],

  // Deactivating follows deletion's rules: admins their teams' workers, nobody themselves.
  'POST /api/users/:id/deactivate': [
    { who: 'anonymous', on: 'new worker', expect: 401 },
    { who: 'worker', on: 'worker', expect: 403 },
    { who: 'worker', on: 'otherWorker', expect: 403 },
    { who: 'admin', on: 'new worker', expect: 200 },
    { who: 'admin', on: 'admin', expect: 400 },
    { who: 'admin', on: 'otherAdmin', expect: 403 },
    { who: 'admin', on: 'superadmin', expect: 403 },
    { who: 'superadmin', on: 'new admin', expect: 200 },
    { who: 'superadmin', on: 'superadmin', expect: 400 },
  ],
  'POST /api/users/:id/reactivate': [
    { who: 'anonymous', on: 'new worker', expect: 401 },
    { who: 'worker', on: 'worker', expect: 403 },
    { who: 'worker', on: 'otherWorker', expect: 403 },
    { who: 'admin', on: 'new worker', expect: 200 },
    { who: 'admin', on: 'admin', expect: 400 },
    { who: 'admin', on: 'otherAdmin', expect: 403 },
    { who: 'admin', on: 'superadmin', expect: 403 },
    { who: 'superadmin', on: 'new admin', expect: 200 },
    { who: 'superadmin', on: 'superadmin', expect: 400 },
  ],

  'POST /api/users/:id/verify-pin': selfOnly(400, { body: { pin: 'abcd' } }),
  'POST /api/users/:id/reset-pin': [
    { who: 'anonymous', on: 'worker', expect: 401 },
    { who: 'worker', on: 'worker', expect: 403 },
    { who: 'admin', on: 'worker', expect: 403 },
    { who: 'superadmin', on: 'new worker', expect: 200 },
  ],
  'POST /api/users/:id/reset-password': [
    { who: 'anonymous', on: 'worker', expect: 401 },
    { who: 'worker', on: 'worker', expect: 403 },
    { who: 'admin', on: 'worker', expect: 403 },
    { who: 'superadmin', on: 'new worker', expect: 200 },
  ],

  'GET /api/users/:id/emergency-contacts': accessRule(200),
  'POST /api/emergency-contacts': accessRule(201, { body: contact }),
  'PATCH /api/emergency-contacts/:id': contactRule(200, false, { body: { relation: 'Neighbour' } }),
  'DELETE /api/emergency-contacts/:id': contactRule(200, true),
  'PATCH /api/users/:id/settings': accessRule(200, { body: settings }),
  'POST /api/settings': accessRule(200, { body: (userId) => ({ userId, ...settings }) }),

  'GET /api/kiosks/current': everyone(200),
  // The API's reference: the document and its page, open to anyone (`:asset` as written names no file).
  'GET /api/openapi.json': everyone(200),
  'GET /api/docs': everyone(200),
  'GET /api/docs/:asset': everyone(404),
  'GET /api/kiosks/roster': everyone(403),
  'GET /api/kiosks': managers(200),
  'POST /api/kiosks': managers(400, { body: {} }),
  'DELETE /api/kiosks/:id': managers(200, { on: 'new kiosk' }),
  // Teams: the superadmin manages them; an admin reads those they monitor (the fixtures' admins
  // joined the one team, "Default", as a one-team deployment's admins do).
  'GET /api/teams': managers(200),
  'POST /api/teams': superadminOnly(201, { body: () => ({ name: `Matrix team ${Math.random().toString(36).slice(2, 10)}` }) }),
  'GET /api/teams/:id': managers(200, { on: 'default team' }),
  'GET /api/teams/:id/members': managers(200, { on: 'default team' }),
  'PATCH /api/teams/:id': superadminOnly(200, { on: 'new team', body: { emergencyNumbers: [] } }),
  'DELETE /api/teams/:id': superadminOnly(200, { on: 'new team' }),
  // The rota: its monitors read who is on call, the superadmin sets it (`:overrideId` as written is no id).
  'GET /api/teams/:id/on-call': managers(200, { on: 'default team' }),
  'GET /api/teams/:id/on-call/timeline': managers(200, { on: 'default team' }),
  'PUT /api/teams/:id/on-call-schedule': superadminOnly(200, { on: 'new team', body: { schedule: null } }),
  'POST /api/teams/:id/on-call/overrides': superadminOnly(400, { on: 'new team', body: {} }),
  'DELETE /api/teams/:id/on-call/overrides/:overrideId': superadminOnly(400, { on: 'new team' }),
  // Each admin's own stretches and calendar feed; the feed itself has no session (`:token` as written is no token).
  'GET /api/profile/on-call': managers(200),
  'POST /api/profile/on-call/feed': managers(201),
  'DELETE /api/profile/on-call/feed': managers(200),
  'GET /api/on-call/feed/:token': everyone(404),
  // Away: an admin sets their own; the superadmin anyone's ({until: null}: back now).
  'POST /api/users/:id/away': [
    { who: 'anonymous', on: 'admin', body: { until: null }, expect: 401 },
    { who: 'worker', on: 'worker', body: { until: null }, expect: 403 },
    { who: 'admin', on: 'admin', body: { until: null }, expect: 200 },
    { who: 'admin', on: 'otherAdmin', body: { until: null }, expect: 403 },
    { who: 'superadmin', on: 'otherAdmin', body: { until: null }, expect: 200 },
  ],

  // locations
  'GET /api/location-options': signedIn(200),
  'POST /api/location-options': managers(201, { body: () => ({ name: `Matrix ${Math.random().toString(36).slice(2, 10)}` }) }),
  // The admin's new location is their team's; one of the whole organisation is the superadmin's.
  'PATCH /api/location-options/:id': [
    ...managers(200, { on: 'new location', body: { isActive: false } }),
    { who: 'admin', on: 'shared location', body: { isActive: false }, expect: 403 },
    { who: 'superadmin', on: 'shared location', body: { isActive: false }, expect: 200 },
  ],
  'DELETE /api/location-options/:id': [...managers(200, { on: 'new location' }), { who: 'admin', on: 'shared location', expect: 403 }],

  // shifts (bodies that fail validation show the call got past authorization without changing anything)
  'GET /api/time': signedIn(200),
  'GET /api/test-clock': signedIn(200),
  'POST /api/test-clock': superadminOnly(400, { body: {} }),
  // A superadmin may also start a worker's shift (the Test Account dashboard), never an admin's.
  'POST /api/users/:id/start-shift': [
    ...ownShift(400, { body: { location: '' } }).filter((c) => !(c.who === 'superadmin')),
    { who: 'superadmin', on: 'worker', expect: 400, body: { location: '' } },
    { who: 'superadmin', on: 'admin', expect: 403, body: { location: '' } },
    { who: 'superadmin', on: 'superadmin', expect: 403, body: { location: '' } },
  ],
  'POST /api/users/:id/end-shift': ownShift(400, { body: { pin: '12' } }),
  'POST /api/users/:id/start-visit': ownShift(400, { body: { where: '', minutes: 30 } }),
  'POST /api/users/:id/end-visit': ownShift(400, { body: { pin: '12' } }),
  'POST /api/check-ins': ownShift(400, { body: (userId) => ({ userId, pin: '12' }) }),
  'POST /api/check-ins/extend': ownShift(400, { body: (userId) => ({ userId, minutes: 20 }) }),
  'POST /api/emergency-call': ownShift(400, { body: (userId) => ({ userId, emergency: false }) }),
  'GET /api/users/:id/emergency': ownShift(200),
  // ":alarmId" stays in the path, which is no alarm id: a caller let through gets 400.
  'POST /api/users/:id/emergency/:alarmId/cancel': ownShift(400, { body: { pin: '12' } }),
  'PUT /api/users/:id/duress-pin': selfOnly(400, { body: { currentPin: '12', duressPin: '1' } }),
  'GET /api/users/:id/latest-check-in': accessRule(200),
  'POST /api/users/:id/force-clock-out': [
    { who: 'anonymous', on: 'worker', expect: 401 },
    { who: 'worker', on: 'worker', expect: 403 },
    { who: 'admin', on: 'worker', expect: 403 },
    { who: 'superadmin', on: 'worker', expect: 200 },
  ],
  'GET /api/workers/active': managers(200),
  'GET /api/workers/due': managers(200),
  'GET /api/workers/missed': managers(200),
  'GET /api/dashboard-data': managers(200),

  // activity log: monitors read everyone's; a worker reads its own (another userId: 403, see activity.test.ts) and writes its own
  'GET /api/activity-logs': signedIn(200),
  'POST /api/activity-logs': accessRule(201, {
    body: (userId) => ({ userId, username: 'matrix', type: 'check_in', details: 'Checked by the authorization matrix' }),
  }),

  // alarms and testing tools (escalation; the deadline tools move a shift in the shifts service)
  'GET /api/alarms': managers(200),
  // No :id target: the path carries "undefined", which is not an alarm id, so a caller let through gets 400.
  'POST /api/alarms/:id/acknowledge': managers(400),
  'POST /api/alarms/:id/notes': managers(400, { body: { text: 'Checked by the authorization matrix' } }),
  'POST /api/alarms/:id/resolve': managers(400, {
    body: { verdict: 'genuine', severity: 'minor', note: 'Checked by the authorization matrix' },
  }),
  // check in now: the fixture worker is off shift, so a caller let through is told so (409)
  'POST /api/check-in-requests': managers(409, { on: 'worker', body: (userId) => ({ userId }) }),
  'GET /api/check-in-requests': managers(200),
  'GET /api/check-in-requests/:id': managers(400),
  'GET /api/profile/check-in-request': signedIn(200),
  'POST /api/alarms/:id/messages': managers(400, { body: { text: 'Checked by the authorization matrix' } }),
  'POST /api/alarms/:id/visit-note': managers(400),
  // No alarm of theirs is open: nothing to read, nothing to answer.
  'GET /api/profile/alarm-messages': signedIn(200),
  'POST /api/profile/alarm-messages': signedIn(409, { body: { text: 'Checked by the authorization matrix' } }),
  'POST /api/profile/alarm-messages/seen': signedIn(200),
  // alarm reports (escalation): the current London month when no month is given
  'GET /api/reports/alarms': managers(200),
  'GET /api/reports/alarms.csv': managers(200),
  'GET /api/system-config': superadminOnly(200),
  'GET /api/test-reminders/status': superadminOnly(200),
  // The fixture worker is never on shift: a caller let through gets 409 (or 400 for a bad body) and nothing moves.
  'POST /api/simulate-specific-time/:id': superadminOnly(400, { on: 'worker', body: { minutesUntilDue: -1 } }),
  'POST /api/reset-check-in-timer/:id': superadminOnly(409, { on: 'worker' }),
  'POST /api/simulate-check-in-due/:id': superadminOnly(409, { on: 'worker' }),
  'POST /api/process-missed-check-ins': managers(200),

  // notifications: push for anyone signed in; the messaging tools for the superadmin (empty bodies and
  // literal ":userId"/":callSid" fail validation, so a caller let through gets 400 and nothing is sent)
  'GET /api/push/public-key': signedIn(200),
  'POST /api/push/subscribe': signedIn(400, { body: {} }),
  'POST /api/test-reminders/send-test-5min': superadminOnly(400, { body: {} }),
  'POST /api/test-reminders/send-test-2min': superadminOnly(400, { body: {} }),
  'POST /api/test-whatsapp-reminders/:userId': superadminOnly(400),
  'GET /api/test-provider/calls': superadminOnly(200),
  'POST /api/test-provider/calls/:callSid/accept': superadminOnly(400),
  'POST /api/test-provider/calls/:callSid/ignore': superadminOnly(400),
  'POST /api/test-provider/inbound-sms': superadminOnly(400, { body: {} }),
  'GET /api/notifications/deliveries': superadminOnly(200),
  // live updates: any signed-in user; the matrix runs with LIVE_MAX_STREAMS_PER_USER=0, so a caller let
  // through gets 429 at once instead of an endless stream (live.test.ts covers the stream itself)
  'GET /api/events': signedIn(429),
  // Twilio's webhooks: no session, checked by X-Twilio-Signature; ":kind" is no webhook.
  'POST /webhooks/twilio/:kind': everyone(404),
  // Provisioning takes the directory's bearer token alone: a session, any role's, opens nothing.
  'GET /scim/v2/*path': everyone(401),
  'POST /scim/v2/*path': everyone(401, { body: {} }),
  'PUT /scim/v2/*path': everyone(401, { body: {} }),
  'PATCH /scim/v2/*path': everyone(401, { body: {} }),
  'DELETE /scim/v2/*path': everyone(401),
};

/**
 * The "monitor of another team" column: teamAdmin, an admin who monitors only
 * "Elsewhere", on every route. The Default team's workers, their contacts and their team are a 404
 * as if they did not exist; lists answer 200 with only Elsewhere's (team-scope.test.ts checks
 * what they hold); the rest as for any admin.
 */
const asTeamAdmin = (status: number, extra: Extra = {}): Case => ({ who: 'teamAdmin', expect: status, ...extra });
const OTHER_TEAM_COLUMN: Record<string, Case> = {
  'GET /healthz': asTeamAdmin(200),
  'GET /readyz': asTeamAdmin(200),
  'POST /api/auth/login': asTeamAdmin(400, { body: {} }),
  'POST /api/auth/logout': asTeamAdmin(200, { body: {}, fresh: true }),
  'GET /api/auth/me': asTeamAdmin(200),
  'POST /api/auth/change-password': asTeamAdmin(400, { body: {} }),
  'POST /api/auth/pin-login': asTeamAdmin(403, { body: { userId: 1, pin: '1234' } }),
  'GET /api/auth/sso': asTeamAdmin(200),
  'GET /api/auth/sso/start': asTeamAdmin(302),
  'GET /api/auth/sso/callback': asTeamAdmin(302),
  'GET /api/system/status': asTeamAdmin(403),
  'GET /api/system/sso': asTeamAdmin(403),
  'PUT /api/system/sso': asTeamAdmin(403, { body: {} }),
  'GET /api/system/scim-tokens': asTeamAdmin(403),
  'POST /api/system/scim-tokens': asTeamAdmin(403, { body: {} }),
  'DELETE /api/system/scim-tokens/:id': asTeamAdmin(403),
  'GET /api/dead-letters': asTeamAdmin(403),
  'GET /api/api-tokens': asTeamAdmin(200),
  'POST /api/api-tokens': asTeamAdmin(400, { body: {} }),
  'DELETE /api/api-tokens/:id': asTeamAdmin(400),
  'GET /api/webhooks/event-types': asTeamAdmin(200),
  'GET /api/webhooks/endpoints': asTeamAdmin(200),
  'POST /api/webhooks/endpoints': asTeamAdmin(400, { body: {} }),
  'PATCH /api/webhooks/endpoints/:id': asTeamAdmin(400, { body: {} }),
  'POST /api/webhooks/endpoints/:id/rotate-secret': asTeamAdmin(400),
  'DELETE /api/webhooks/endpoints/:id': asTeamAdmin(400),
  'POST /api/webhooks/endpoints/:id/test': asTeamAdmin(400),
  'GET /api/webhooks/endpoints/:id/deliveries': asTeamAdmin(400),
  'POST /api/webhooks/deliveries/:id/replay': asTeamAdmin(400),
  'POST /api/dead-letters/:id/replay': asTeamAdmin(403),
  'POST /api/dead-letters/:id/discard': asTeamAdmin(403),
  // A new worker joins the admin's own team.
  'POST /api/users': asTeamAdmin(201, { body: newUser('worker') }),
  'GET /api/worker-accounts': asTeamAdmin(200),
  'GET /api/data/workers': asTeamAdmin(200),
  'POST /api/users/import': asTeamAdmin(403, { body: {} }),
  'GET /api/users/:id/with-relations': asTeamAdmin(404, { on: 'worker' }),
  'PATCH /api/users/:id': asTeamAdmin(404, { on: 'worker', body: { medicalInfo: 'Checked by the authorization matrix' } }),
  'DELETE /api/users/:id': asTeamAdmin(404, { on: 'new worker' }),
  'POST /api/users/:id/deactivate': asTeamAdmin(404, { on: 'new worker' }),
  'POST /api/users/:id/reactivate': asTeamAdmin(404, { on: 'new worker' }),
  'POST /api/users/:id/verify-pin': asTeamAdmin(403, { on: 'worker', body: { pin: 'abcd' } }),
  'POST /api/users/:id/reset-pin': asTeamAdmin(403, { on: 'worker' }),
  'POST /api/users/:id/reset-password': asTeamAdmin(403, { on: 'worker' }),
  'GET /api/users/:id/emergency-contacts': asTeamAdmin(404, { on: 'worker' }),
  'POST /api/emergency-contacts': asTeamAdmin(404, { on: 'worker', body: contact }),
  'PATCH /api/emergency-contacts/:id': asTeamAdmin(404, { on: 'contact of worker', body: { relation: 'Neighbour' } }),
  'DELETE /api/emergency-contacts/:id': asTeamAdmin(404, { on: 'new contact of worker' }),
  'PATCH /api/users/:id/settings': asTeamAdmin(404, { on: 'worker', body: settings }),
  'POST /api/settings': asTeamAdmin(404, { on: 'worker', body: (userId) => ({ userId, ...settings }) }),
  'GET /api/kiosks/current': asTeamAdmin(200),
  'GET /api/openapi.json': asTeamAdmin(200),
  'GET /api/docs': asTeamAdmin(200),
  'GET /api/docs/:asset': asTeamAdmin(404),
  'GET /api/kiosks/roster': asTeamAdmin(403),
  'GET /api/kiosks': asTeamAdmin(200),
  'POST /api/kiosks': asTeamAdmin(400, { body: { name: 'Elsewhere desk', location: 'Reception' } }),
  'DELETE /api/kiosks/:id': asTeamAdmin(404, { on: 'new kiosk' }),
  'GET /api/teams': asTeamAdmin(200),
  'POST /api/teams': asTeamAdmin(403, { body: () => ({ name: `Matrix team ${Math.random().toString(36).slice(2, 10)}` }) }),
  'GET /api/teams/:id': asTeamAdmin(404, { on: 'default team' }),
  'GET /api/teams/:id/members': asTeamAdmin(404, { on: 'default team' }),
  'PATCH /api/teams/:id': asTeamAdmin(403, { on: 'new team', body: { emergencyNumbers: [] } }),
  'DELETE /api/teams/:id': asTeamAdmin(403, { on: 'new team' }),
  'GET /api/teams/:id/on-call': asTeamAdmin(404, { on: 'default team' }),
  'GET /api/teams/:id/on-call/timeline': asTeamAdmin(404, { on: 'default team' }),
  'PUT /api/teams/:id/on-call-schedule': asTeamAdmin(403, { on: 'new team', body: { schedule: null } }),
  'POST /api/teams/:id/on-call/overrides': asTeamAdmin(403, { on: 'new team', body: {} }),
  'DELETE /api/teams/:id/on-call/overrides/:overrideId': asTeamAdmin(403, { on: 'new team' }),
  'GET /api/profile/on-call': asTeamAdmin(200),
  'POST /api/profile/on-call/feed': asTeamAdmin(201),
  'DELETE /api/profile/on-call/feed': asTeamAdmin(200),
  'GET /api/on-call/feed/:token': asTeamAdmin(404),
  'POST /api/users/:id/away': asTeamAdmin(403, { on: 'admin', body: { until: null } }),
  // A new location joins the admin's own team; the Default team's is a 404 as if it did not exist.
  'GET /api/location-options': asTeamAdmin(200),
  'POST /api/location-options': asTeamAdmin(201, { body: () => ({ name: `Matrix ${Math.random().toString(36).slice(2, 10)}` }) }),
  'PATCH /api/location-options/:id': asTeamAdmin(404, { on: 'new location', body: { isActive: false } }),
  'DELETE /api/location-options/:id': asTeamAdmin(404, { on: 'new location' }),
  'GET /api/time': asTeamAdmin(200),
  'GET /api/test-clock': asTeamAdmin(200),
  'POST /api/test-clock': asTeamAdmin(403, { body: {} }),
  'POST /api/users/:id/start-shift': asTeamAdmin(403, { on: 'worker', body: { location: '' } }),
  'POST /api/users/:id/end-shift': asTeamAdmin(403, { on: 'worker', body: { pin: '12' } }),
  'POST /api/users/:id/start-visit': asTeamAdmin(403, { on: 'worker', body: { where: '', minutes: 30 } }),
  'POST /api/users/:id/end-visit': asTeamAdmin(403, { on: 'worker', body: { pin: '12' } }),
  'POST /api/check-ins': asTeamAdmin(403, { on: 'worker', body: (userId) => ({ userId, pin: '12' }) }),
  'POST /api/check-ins/extend': asTeamAdmin(403, { on: 'worker', body: (userId) => ({ userId, minutes: 20 }) }),
  'POST /api/emergency-call': asTeamAdmin(403, { on: 'worker', body: (userId) => ({ userId, emergency: false }) }),
  'GET /api/users/:id/emergency': asTeamAdmin(403, { on: 'worker' }),
  'POST /api/users/:id/emergency/:alarmId/cancel': asTeamAdmin(403, { on: 'worker', body: { pin: '12' } }),
  'PUT /api/users/:id/duress-pin': asTeamAdmin(403, { on: 'worker', body: { currentPin: '12', duressPin: '1' } }),
  'GET /api/users/:id/latest-check-in': asTeamAdmin(404, { on: 'worker' }),
  'POST /api/users/:id/force-clock-out': asTeamAdmin(403, { on: 'worker' }),
  'GET /api/workers/active': asTeamAdmin(200),
  'GET /api/workers/due': asTeamAdmin(200),
  'GET /api/workers/missed': asTeamAdmin(200),
  'GET /api/dashboard-data': asTeamAdmin(200),
  'GET /api/activity-logs': asTeamAdmin(200),
  'POST /api/activity-logs': asTeamAdmin(404, {
    on: 'worker',
    body: (userId) => ({ userId, username: 'matrix', type: 'check_in', details: 'Checked by the authorization matrix' }),
  }),
  'GET /api/alarms': asTeamAdmin(200),
  // Another team's worker is not theirs to ask.
  'POST /api/check-in-requests': asTeamAdmin(404, { on: 'worker', body: (userId) => ({ userId }) }),
  'GET /api/check-in-requests': asTeamAdmin(200),
  'GET /api/check-in-requests/:id': asTeamAdmin(400),
  'GET /api/profile/check-in-request': asTeamAdmin(200),
  'POST /api/alarms/:id/messages': asTeamAdmin(400, { body: { text: 'Checked by the authorization matrix' } }),
  'POST /api/alarms/:id/visit-note': asTeamAdmin(400),
  'GET /api/profile/alarm-messages': asTeamAdmin(200),
  'POST /api/profile/alarm-messages': asTeamAdmin(409, { body: { text: 'Checked by the authorization matrix' } }),
  'POST /api/profile/alarm-messages/seen': asTeamAdmin(200),
  'POST /api/alarms/:id/acknowledge': asTeamAdmin(400),
  'POST /api/alarms/:id/notes': asTeamAdmin(400, { body: { text: 'Checked by the authorization matrix' } }),
  'POST /api/alarms/:id/resolve': asTeamAdmin(400, {
    body: { verdict: 'genuine', severity: 'minor', note: 'Checked by the authorization matrix' },
  }),
  'GET /api/reports/alarms': asTeamAdmin(200),
  'GET /api/reports/alarms.csv': asTeamAdmin(200),
  'GET /api/system-config': asTeamAdmin(403),
  'GET /api/test-reminders/status': asTeamAdmin(403),
  'POST /api/simulate-specific-time/:id': asTeamAdmin(403, { on: 'worker', body: { minutesUntilDue: -1 } }),
  'POST /api/reset-check-in-timer/:id': asTeamAdmin(403, { on: 'worker' }),
  'POST /api/simulate-check-in-due/:id': asTeamAdmin(403, { on: 'worker' }),
  // Runs only what is due of their own team (alarm-ownership.test.ts): nothing of the fixtures' team.
  'POST /api/process-missed-check-ins': asTeamAdmin(200),
  'GET /api/push/public-key': asTeamAdmin(200),
  'POST /api/push/subscribe': asTeamAdmin(400, { body: {} }),
  'POST /api/test-reminders/send-test-5min': asTeamAdmin(403, { body: {} }),
  'POST /api/test-reminders/send-test-2min': asTeamAdmin(403, { body: {} }),
  'POST /api/test-whatsapp-reminders/:userId': asTeamAdmin(403),
  'GET /api/test-provider/calls': asTeamAdmin(403),
  'POST /api/test-provider/calls/:callSid/accept': asTeamAdmin(403),
  'POST /api/test-provider/calls/:callSid/ignore': asTeamAdmin(403),
  'POST /api/test-provider/inbound-sms': asTeamAdmin(403, { body: {} }),
  'GET /api/notifications/deliveries': asTeamAdmin(403),
  'GET /api/events': asTeamAdmin(429),
  'POST /webhooks/twilio/:kind': asTeamAdmin(404),
  'GET /scim/v2/*path': asTeamAdmin(401),
  'POST /scim/v2/*path': asTeamAdmin(401, { body: {} }),
  'PUT /scim/v2/*path': asTeamAdmin(401, { body: {} }),
  'PATCH /scim/v2/*path': asTeamAdmin(401, { body: {} }),
  'DELETE /scim/v2/*path': asTeamAdmin(401),
};

/**
 * The API token column: the scope each route needs from a machine's token, `people` for a route
 * that refuses every token whatever its scopes, `public` for one that needs no authentication at all.
 */
const TOKEN_COLUMN: Record<string, ApiScope | 'people' | 'public'> = {
  'GET /api/alarms': 'alarms:read',
  'GET /api/reports/alarms': 'alarms:read',
  'GET /api/reports/alarms.csv': 'alarms:read',
  'POST /api/alarms/:id/acknowledge': 'alarms:write',
  'POST /api/alarms/:id/resolve': 'alarms:write',
  'POST /api/alarms/:id/notes': 'alarms:write',
  'POST /api/check-in-requests': 'alarms:write',
  'POST /api/alarms/:id/messages': 'alarms:write',
  'POST /api/alarms/:id/visit-note': 'alarms:write',
  'GET /api/check-in-requests': 'alarms:read',
  'GET /api/check-in-requests/:id': 'alarms:read',
  'GET /api/workers/active': 'shifts:read',
  'GET /api/workers/due': 'shifts:read',
  'GET /api/workers/missed': 'shifts:read',
  'GET /api/dashboard-data': 'shifts:read',
  'GET /api/users/:id/latest-check-in': 'shifts:read',
  'GET /api/activity-logs': 'shifts:read',
  'GET /api/worker-accounts': 'users:read',
  'GET /api/data/workers': 'users:read',
  'GET /api/users/:id/with-relations': 'users:read',
  'GET /api/teams': 'users:read',
  'GET /api/teams/:id': 'users:read',
  'GET /api/teams/:id/members': 'users:read',
  'GET /api/webhooks/event-types': 'webhooks:manage',
  'GET /api/webhooks/endpoints': 'webhooks:manage',
  'POST /api/webhooks/endpoints': 'webhooks:manage',
  'PATCH /api/webhooks/endpoints/:id': 'webhooks:manage',
  'POST /api/webhooks/endpoints/:id/rotate-secret': 'webhooks:manage',
  'DELETE /api/webhooks/endpoints/:id': 'webhooks:manage',
  'POST /api/webhooks/endpoints/:id/test': 'webhooks:manage',
  'GET /api/webhooks/endpoints/:id/deliveries': 'webhooks:manage',
  'POST /api/webhooks/deliveries/:id/replay': 'webhooks:manage',
  // Provisioning checks its own bearer tokens (the directory's), never an API token's scopes.
  'GET /scim/v2/*path': 'public',
  'POST /scim/v2/*path': 'public',
  'PUT /scim/v2/*path': 'public',
  'PATCH /scim/v2/*path': 'public',
  'DELETE /scim/v2/*path': 'public',
};
const PUBLIC_ROUTES = new Set(
  Object.entries(MATRIX)
    .filter(([, cases]) => cases.some((c) => c.who === 'anonymous' && c.expect !== 401))
    .map(([route]) => route),
);
const tokenRule = (route: string) => TOKEN_COLUMN[route] ?? (PUBLIC_ROUTES.has(route) ? 'public' : 'people');

describe('authorization matrix: every gateway endpoint × {anonymous, worker, admin, superadmin, monitor of another team}', () => {
  let t: TestStack;
  const people = {} as Record<Fixture, Account>;
  const contacts = {} as Record<Fixture, number>;

  beforeAll(async () => {
    // The test clock's routes exist only when it is on: on here, so they have rows too.
    t = await startTestStack({ env: { LOGIN_MAX_ATTEMPTS_PER_IP: '1000', LWS_TEST_CLOCK: '1', LIVE_MAX_STREAMS_PER_USER: '0' } });
    people.superadmin = await superadminOf(t);
    people.admin = await createAccount(t, people.superadmin.agent, 'admin');
    people.otherAdmin = await createAccount(t, people.superadmin.agent, 'admin');
    people.worker = await createAccount(t, people.admin.agent, 'worker');
    people.otherWorker = await createAccount(t, people.admin.agent, 'worker');
    // Default works at Reception; teamAdmin joins after a second team exists, so monitors only that one.
    const teams = (await people.superadmin.agent.get('/api/teams').expect(200)).body as { id: number }[];
    const reception = (await people.superadmin.agent.post('/api/location-options').set(XHR).send({ name: 'Reception' }).expect(201)).body
      .id;
    await people.superadmin.agent
      .patch(`/api/teams/${teams[0].id}`)
      .set(XHR)
      .send({ locationIds: [reception] })
      .expect(200);
    const elsewhere = (await people.superadmin.agent.post('/api/teams').set(XHR).send({ name: 'Elsewhere' }).expect(201)).body.id;
    people.teamAdmin = await createAccount(t, people.superadmin.agent, 'admin', 'teamadmin');
    await people.superadmin.agent
      .patch(`/api/teams/${elsewhere}`)
      .set(XHR)
      .send({ monitors: [{ userId: people.teamAdmin.id }] })
      .expect(200);
    people.deputy = await createAccount(t, people.superadmin.agent, 'admin', 'deputy');
    const monitors = [{ userId: people.admin.id, deputyUserId: people.deputy.id }, { userId: people.otherAdmin.id }];
    await people.superadmin.agent.patch(`/api/teams/${teams[0].id}`).set(XHR).send({ monitors }).expect(200);
    for (const f of Object.keys(people) as Fixture[]) contacts[f] = await addContact(f);
  }, 120_000);
  afterAll(() => t?.stop());

  async function addContact(owner: Fixture): Promise<number> {
    const res = await people[owner].agent.post('/api/emergency-contacts').set(XHR).send(contact(people[owner].id)).expect(201);
    return res.body.id;
  }

  async function newUserId(role: 'worker' | 'admin'): Promise<number> {
    const res = await people.superadmin.agent.post('/api/users').set(XHR).send(newUser(role)()).expect(201);
    return res.body.user.id;
  }

  async function resolve(target: Target): Promise<number> {
    if (target === 'new worker') return newUserId('worker');
    if (target === 'new admin') return newUserId('admin');
    if (target === 'new location') {
      const name = `Matrix site ${Math.random().toString(36).slice(2, 10)}`;
      return (await people.admin.agent.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id;
    }
    if (target === 'shared location') {
      const name = `Matrix shared ${Math.random().toString(36).slice(2, 10)}`;
      return (await people.superadmin.agent.post('/api/location-options').set(XHR).send({ name }).expect(201)).body.id;
    }
    if (target === 'new kiosk') {
      // Enrolled from a browser of its own: the kiosk cookie must not land on a matrix caller.
      const enroller = await signIn(t, people.admin.username, people.admin.password);
      return (await enroller.post('/api/kiosks').set(XHR).send({ name: 'Matrix kiosk', location: 'Reception' }).expect(201)).body.id;
    }
    if (target === 'default team') {
      const teams = (await people.superadmin.agent.get('/api/teams').expect(200)).body as { id: number; name: string }[];
      return teams.find((team) => team.name === 'Default')!.id;
    }
    if (target === 'new team') {
      const name = `Matrix team ${Math.random().toString(36).slice(2, 10)}`;
      return (await people.superadmin.agent.post('/api/teams').set(XHR).send({ name }).expect(201)).body.id;
    }
    if (target.startsWith('new contact of ')) return addContact(target.slice('new contact of '.length) as Fixture);
    if (target.startsWith('contact of ')) return contacts[target.slice('contact of '.length) as Fixture];
    return people[target as Fixture].id;
  }

  async function callerFor(c: Case) {
    if (c.who === 'anonymous') return request(t.url);
    const me = people[c.who];
    return c.fresh ? signIn(t, me.username, me.password) : me.agent;
  }

  it('has a row for every route the gateway serves, and no row for a route it does not, in both tables', () => {
    const gateway = t.stack.services.find((s) => s.name === 'gateway') as { app: INestApplication };
    expect(servedRoutes(gateway.app).sort()).toEqual(Object.keys(MATRIX).sort());
    expect(Object.keys(OTHER_TEAM_COLUMN).sort()).toEqual(Object.keys(MATRIX).sort());
    for (const route of Object.keys(TOKEN_COLUMN)) expect(MATRIX).toHaveProperty([route]);
  });

  /**
   * A token minted by the fixture admin: one holding only `scope` gets exactly what the admin gets;
   * one holding every other scope gets 403; a route for people refuses a token holding them all.
   * No cookie and no CSRF header: the token alone authenticates.
   */
  const tokenTable = Object.keys(MATRIX)
    .filter((route) => tokenRule(route) !== 'public')
    .flatMap((route) => {
      const rule = tokenRule(route);
      const asAdmin = MATRIX[route].find((c) => c.who === 'admin')!;
      if (rule === 'people')
        return [
          { title: `${route} with a token holding every scope → 403`, route, c: { ...asAdmin, expect: 403 }, scopes: [...API_SCOPES] },
        ];
      return [
        { title: `${route} with a token holding only ${rule} → ${asAdmin.expect}`, route, c: asAdmin, scopes: [rule] },
        {
          title: `${route} with a token lacking ${rule} → 403`,
          route,
          c: { ...asAdmin, expect: 403 },
          scopes: API_SCOPES.filter((x) => x !== rule),
        },
      ];
    });
  const minted = new Map<string, string>();
  async function tokenWith(scopes: ApiScope[]): Promise<string> {
    const key = [...scopes].sort().join(' ');
    if (!minted.has(key)) {
      const res = await people.admin.agent
        .post('/api/api-tokens')
        .set(XHR)
        .send({ name: `Matrix ${key}`, scopes, expiresInDays: 1 })
        .expect(201);
      minted.set(key, res.body.secret);
    }
    return minted.get(key)!;
  }

  it.each(tokenTable)('$title', async ({ route, c, scopes }) => {
    const [method, template] = route.split(' ');
    const targetId = c.on ? await resolve(c.on) : undefined;
    const path = template.replace(':id', String(targetId));
    const body = typeof c.body === 'function' ? c.body(targetId!) : c.body;
    const call = request(t.url)
      [method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path)
      .set('Authorization', `Bearer ${await tokenWith(scopes)}`);
    const res = body === undefined ? await call : await call.send(body);
    expect({ status: res.status, body: res.status === c.expect ? 'as expected' : res.body }).toEqual({
      status: c.expect,
      body: 'as expected',
    });
  });

  const table = Object.entries(MATRIX).flatMap(([route, cases]) =>
    [...cases, OTHER_TEAM_COLUMN[route]].map((c) => ({
      title: `${route} as ${c.who === 'teamAdmin' ? OTHER_TEAM : c.who}${c.on ? ` on ${c.on}` : ''} → ${c.expect}`,
      route,
      c,
    })),
  );

  it.each(table)('$title', async ({ route, c }) => {
    const [method, template] = route.split(' ');
    const targetId = c.on ? await resolve(c.on) : undefined;
    const path = template.replace(':id', String(targetId));
    const caller = await callerFor(c);
    const body = typeof c.body === 'function' ? c.body(targetId!) : c.body;
    const call = (caller as request.Agent)[method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path).set(XHR);
    const res = body === undefined ? await call : await call.send(body);
    expect({ status: res.status, body: res.status === c.expect ? 'as expected' : res.body }).toEqual({
      status: c.expect,
      body: 'as expected',
    });
  });
});
