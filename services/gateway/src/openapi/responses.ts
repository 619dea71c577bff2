import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ALARM_VERDICTS, FALSE_ALARM_REASONS, INCIDENT_SEVERITIES } from '@lws/schemas';
import type { ActivityController } from '../activity/activity.controller';
import type { AuthController } from '../auth/auth.controller';
import type { AlarmsController } from '../escalation/alarms.controller';
import type { CheckInRequestsController } from '../escalation/checkin-requests.controller';
import type { OwnAlarmMessagesController } from '../escalation/own-alarm-messages.controller';
import type { ContactsController } from '../profile/contacts.controller';
import type { CheckInsController } from '../shifts/check-ins.controller';
import type { DashboardsController } from '../shifts/dashboards.controller';
import type { EmergencyController } from '../shifts/emergency.controller';
import type { OwnEmergencyController } from '../shifts/own-emergency.controller';
import type { ShiftsController } from '../shifts/shifts.controller';
import type { TeamsController } from '../teams/teams.controller';
import type { AccountsController } from '../users/accounts.controller';
import type { UsersController } from '../users/users.controller';

/**
 * What the routes a machine integration uses answer, field by field as the view mappers write
 * them. Each schema is held to its handler's return type below, so a field added to a view and
 * not here (or the other way round) fails the build; the integration test then holds the real
 * answers of a running stack to the document.
 */

// Before any schema below: .openapi() names a schema as a component of the document.
extendZodWithOpenApi(z);

const instant = z.string().datetime({ offset: true }).describe('An instant, ISO 8601 in UTC');
const userId = z.number().int().min(1);
const role = z.enum(['worker', 'admin', 'superadmin']);

/**
 * Null or a named schema. Not `.nullable()`: the generator would make the named schema itself
 * nullable, everywhere it is used.
 */
export const orNull = <S extends z.ZodTypeAny>(schema: S) => z.union([schema, z.null()]);

// Each view is built from shapes rather than by extending another named schema: the generator
// writes an extended named schema as allOf, which a strict (additionalProperties: false) base
// would then refuse.

export const errorResponse = z
  .object({
    message: z.string().describe('What went wrong, in words a person can act on'),
    field: z.string().optional().describe('The input field at fault (dotted path), when one is'),
  })
  .strict()
  .openapi('Error');

export const okResponse = z.object({ ok: z.literal(true) }).strict();

/** Any JSON object: a route documented in words only. */
export const anyObject = z.object({}).passthrough();
export const anyObjects = z.array(anyObject);

export const latestCheckIn = z
  .object({
    id: z.string(),
    timestamp: instant,
    location: z.string(),
    nextCheckInTime: instant.describe('When the check-in after this one is due'),
  })
  .strict()
  .openapi('LatestCheckIn');

export const visit = z
  .object({
    id: z.string().uuid(),
    where: z.string().describe('An address or a location, as the worker gave it'),
    startedAt: instant,
    endsAt: instant.describe("When the visit's timer runs out"),
    hasNote: z.boolean().describe('The worker left a sealed note, revealed only on an alarm of the visit'),
    type: orNull(z.object({ id: z.string(), name: z.string() }).strict()).describe(
      "The team's visit type it was started as (its risk level)",
    ),
    checkInInterval: z.number().int().nullable().describe("Minutes between check-ins while it lasts (its type's); null: the worker's own"),
  })
  .strict()
  .openapi('Visit');

const shiftShape = {
  onShift: z.boolean(),
  location: z.string().nullable().describe("Where the shift is, or 'Off Shift'"),
  shiftStartTime: instant.nullable(),
  latestCheckIn: orNull(latestCheckIn).describe('The latest check-in of the current shift'),
  nextCheckInTime: instant.nullable().describe('When the next check-in is due; null off shift'),
  visit: orNull(visit).describe('The timed visit under way; its end is the deadline when sooner than the regular one'),
};

const workerShape = {
  id: userId,
  name: z.string().nullable(),
  username: z.string().nullable(),
  phone: z.string().nullable(),
  ...shiftShape,
};

export const worker = z.object(workerShape).strict().openapi('Worker');

export const startedShift = z
  .object({
    ...workerShape,
    coverWarning: z
      .object({ gapStart: instant, gapEnd: instant })
      .strict()
      .optional()
      .describe("The worker's team warns of shifts without cover: nobody is on call for it over this stretch of the shift's first 8 hours"),
  })
  .strict()
  .openapi('StartedShift');

const extensionShape = {
  extensionsLeft: z.number().int().min(0).optional().describe('On shift: "+15 min" presses this shift has left'),
  extensionMinutesLeft: z.number().int().min(0).optional().describe('On shift: minutes of extension this shift has left'),
};

export const position = z
  .object({ lat: z.number(), lng: z.number(), accuracy: z.number().nullable().describe('Metres'), at: instant })
  .strict()
  .openapi('Position');

const alarmMessage = z
  .object({
    id: z.string().uuid(),
    from: z.enum(['monitor', 'worker']),
    byName: z.string().nullable(),
    text: z.string(),
    at: instant,
    seenAt: instant.nullable().describe("A monitor's message: when the worker's screen showed it"),
  })
  .strict()
  .openapi('AlarmMessage');

export const alarm = z
  .object({
    id: z.string().uuid(),
    userId,
    workerName: z.string().nullable(),
    location: z.string().nullable(),
    kind: z.enum(['missed_check_in', 'emergency']),
    state: z.enum(['open', 'acknowledged', 'resolved']),
    openedAt: instant,
    dueAt: instant.nullable().describe('A missed check-in: the deadline that passed'),
    acknowledgedBy: userId.nullable(),
    acknowledgedByName: z.string().nullable(),
    acknowledgedAt: instant.nullable(),
    acknowledgedViaToken: z.string().nullable().describe('The API token that acknowledged it, by name'),
    resolvedBy: userId.nullable(),
    resolvedByName: z.string().nullable(),
    resolvedAt: instant.nullable(),
    resolvedViaToken: z.string().nullable().describe('The API token that resolved it, by name'),
    verdict: z.enum(ALARM_VERDICTS).nullable().describe('The outcome recorded on resolving it'),
    severity: z.enum(INCIDENT_SEVERITIES).nullable().describe('A genuine incident: how serious it was'),
    reason: z.enum(FALSE_ALARM_REASONS).nullable().describe('A false alarm: why it was false'),
    note: z.string().nullable(),
    lateCheckInAt: instant.nullable().describe('When the worker checked in after the deadline'),
    duress: z.boolean().describe("Raised by the worker's duress PIN"),
    workerSafeAt: instant.nullable().describe('When the worker said they are safe'),
    shiftNote: z.string().nullable().describe(`"Where I'll be", as the worker wrote it`),
    visit: orNull(visit).describe('Opened on this timed visit (its timer ran out, or an emergency during it)'),
    lastPosition: orNull(position),
    history: z.array(z.string()).describe('Escalation steps run so far, oldest first'),
    messages: z.array(alarmMessage).describe('The messages the monitors and the worker exchanged, oldest first'),
  })
  .strict()
  .openapi('Alarm');

export const workerThread = z
  .object({
    thread: z
      .object({ alarmId: z.string().uuid(), kind: z.enum(['missed_check_in', 'emergency']), messages: z.array(alarmMessage) })
      .strict()
      .nullable()
      .describe('Null when no alarm of theirs is open'),
  })
  .strict()
  .openapi('AlarmThread');

export const ownEmergency = z
  .object({
    id: z.string().uuid(),
    state: z.enum(['open', 'acknowledged', 'resolved']),
    openedAt: instant,
    acknowledgedByName: z.string().nullable(),
    acknowledgedAt: instant.nullable(),
    safeAt: instant.nullable(),
    updates: z.array(z.object({ at: instant, text: z.string(), name: z.string().nullable() }).strict()),
  })
  .strict()
  .openapi('OwnEmergency');

export const currentEmergency = z.object({ emergency: orNull(ownEmergency).describe('null: none is open') }).strict();
export const emergencyMarkedSafe = z.object({ emergency: ownEmergency }).strict();

export const checkInRecorded = z
  .object({
    id: z.string(),
    userId,
    timestamp: instant,
    location: z.string(),
    status: z.literal('safe'),
    nextCheckInTime: instant,
    user: worker,
  })
  .strict()
  .openapi('CheckInRecorded');

export const checkInExtended = z.object({ ...workerShape, ...extensionShape }).strict();

export const visitNote = z
  .object({ note: z.string().describe('The sealed note, as the worker wrote it') })
  .strict()
  .openapi('VisitNote');

export const emergencyRaised = z
  .object({
    contact: z.string().nullable().describe('The number the worker is put through to'),
    contactName: z.string().nullable(),
    user: worker,
  })
  .strict();

export const testCallStarted = z.object({ callSid: z.string(), status: z.string() }).strict().describe("The superadmin's test call");

export const activityEntry = z
  .object({
    id: z.number().int(),
    userId: userId.nullable(),
    username: z.string(),
    type: z.string(),
    label: z.string().describe('The type as a person reads it'),
    timestamp: instant,
    details: z.string(),
    location: z.string().nullable(),
  })
  .strict()
  .openapi('ActivityEntry');

const publicUserShape = {
  id: userId,
  username: z.string(),
  name: z.string(),
  role,
  phone: z.string().optional(),
  language: z.string().describe('Language code of their screens, texts and calls'),
};

export const publicUser = z.object(publicUserShape).strict();

export const signedInUser = z
  .object({
    ...publicUserShape,
    pinSet: z.boolean(),
    passwordIsTemporary: z.boolean(),
    duressPinSet: z.boolean(),
    kiosk: z.object({ location: z.string().nullable() }).strict().optional().describe('Signed in at a kiosk'),
  })
  .strict();

const userShape = { ...publicUserShape, medicalInfo: z.string().optional() };

export const user = z.object(userShape).strict().openapi('User');

const contactShape = { id: z.number().int(), userId, name: z.string(), phone: z.string(), relation: z.string() };
export const contact = z.object(contactShape).strict().openapi('Contact');

const creator = z
  .object({ id: userId, name: z.string().nullable(), role: z.string().nullable() })
  .strict()
  .nullable()
  .describe('Who created the account (superadmin only); null when unknown');

export const account = z
  .object({
    ...userShape,
    teamId: z.number().int().optional(),
    disabled: z.boolean().optional().describe('Present, true, when deactivated'),
    emergencyContacts: z.array(z.object({ id: contactShape.id, name: z.string(), phone: z.string(), relation: z.string() }).strict()),
    passwordSet: z.boolean().optional().describe('Superadmin only'),
    pinSet: z.boolean().optional().describe('Superadmin only'),
    createdBy: creator.optional(),
    ...shiftShape,
  })
  .strict()
  .openapi('Account');

export const settings = z
  .object({ userId, primaryContact: z.string(), secondaryContact: z.string().nullable(), checkInInterval: z.number().int() })
  .strict()
  .openapi('Settings');

const checkInPolicy = z.object({ defaultInterval: z.number().int(), allowedIntervals: z.array(z.number().int()) }).strict();

const visitTypeShape = {
  id: z.string(),
  name: z.string(),
  minutes: z.number().int().describe('How long it lasts unless the worker says otherwise'),
  checkInInterval: z.number().int().nullable().describe("Minutes between check-ins while it lasts; null: the worker's own interval"),
  smsToo: z.boolean().describe('Check-in reminders go by SMS too'),
};

export const userWithRelations = z
  .object({
    ...userShape,
    pinSet: z.boolean(),
    settings: orNull(settings),
    checkInInterval: z.number().int().describe('Minutes between check-ins that apply to them'),
    emergencyContacts: z.array(contact),
    ...shiftShape,
    ...extensionShape,
    shiftNote: z.string().nullable().optional().describe(`On shift: "where I'll be"`),
    team: z
      .object({
        id: z.number().int(),
        name: z.string(),
        monitors: z.array(z.string()),
        checkInPolicy,
        visitTypes: z.array(z.object(visitTypeShape).strict()).describe('The visit types the worker picks from'),
      })
      .strict()
      .nullable(),
    createdBy: creator.optional(),
    awayUntil: instant.nullable().optional().describe('An admin: away until then, deputies standing in'),
  })
  .strict()
  .openapi('UserWithRelations');

export const visitType = z
  .object({
    ...visitTypeShape,
    escalationPolicy: z.record(z.string(), z.unknown()).nullable().describe("Its alarms' escalation steps; null: the team's"),
  })
  .strict()
  .openapi('VisitType');

export const team = z
  .object({
    id: z.number().int(),
    name: z.string(),
    locationIds: z.array(z.number().int()),
    monitors: z.array(z.object({ userId, deputyUserId: userId.optional() }).strict()).describe('In order: who is told first'),
    checkInPolicy,
    escalationPolicy: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The team's escalation steps per alarm kind; null: the organisation's"),
    emergencyNumbers: z.array(z.string()),
    voiceReminder: z.boolean(),
    onCallSchedule: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe("The team's on-call rota: timeZone, layers in priority order, overrides; null: none, its monitors in order"),
    coverRequired: z.enum(['off', 'warn', 'refuse']).describe('Whether a shift needs someone on call for its length'),
    visitTypes: z.array(visitType).describe('The kinds of timed visit its workers pick from (risk levels), in order'),
    memberCount: z.number().int(),
    version: z.number().int(),
    createdAt: instant,
    updatedAt: instant,
  })
  .strict()
  .openapi('Team');

const onCallSlot = z
  .object({
    userId,
    name: z.string(),
    layer: z.number().int().min(0).describe("The layer's index (0: the first)"),
    layerName: z.string(),
    start: instant,
    end: instant,
    via: z
      .enum(['override', 'deputy'])
      .optional()
      .describe('override: an override put them there; deputy: standing in for forUserId, away'),
    forUserId: userId.optional(),
  })
  .strict()
  .openapi('OnCallSlot');

export const onCallNow = z
  .object({
    hasRota: z.boolean(),
    at: instant,
    now: onCallSlot.optional().describe('Who is on call then; absent: nobody (a gap)'),
    next: onCallSlot.optional().describe("The next layer's person at that moment"),
    after: onCallSlot.optional().describe('Who takes over when `now` ends'),
  })
  .strict()
  .openapi('OnCallNow');

export const onCallTimeline = z
  .object({
    hasRota: z.boolean(),
    timeZone: z.string(),
    layers: z.array(z.object({ name: z.string(), slots: z.array(onCallSlot) }).strict()),
    final: z.array(onCallSlot).describe('Moment by moment, the first layer with someone on call'),
    gaps: z.array(z.object({ start: instant, end: instant }).strict()),
  })
  .strict()
  .openapi('OnCallTimeline');

export const myOnCall = z
  .object({
    hasFeed: z.boolean().describe('Whether they have a calendar feed'),
    slots: z.array(
      z
        .object({
          teamId: z.number().int(),
          teamName: z.string(),
          layerName: z.string(),
          start: instant,
          end: instant,
          via: z.enum(['override', 'deputy']).optional(),
          forUserId: userId.optional(),
        })
        .strict(),
    ),
  })
  .strict()
  .openapi('MyOnCall');

export const onCallOverride = z
  .object({ id: z.string().uuid(), layer: z.number().int().min(0), userId, start: instant, end: instant })
  .strict()
  .openapi('OnCallOverride');

export const checkInRequestBatch = z
  .object({
    id: z.string().uuid().describe('The batch: every worker asked by one action'),
    requestedBy: userId,
    requestedByName: z.string().nullable(),
    requestedAt: instant,
    dueAt: instant.describe('When an unanswered request opens a missed check-in alarm'),
    teamId: z.number().int().nullable().describe("Asked of this team's workers on shift; null: of one worker"),
    answered: z.number().int().min(0).describe('Workers who have checked in since'),
    total: z.number().int().min(0),
    workers: z.array(
      z
        .object({
          requestId: z.string().uuid(),
          userId,
          name: z.string().nullable(),
          state: z.enum(['waiting', 'answered', 'alarm', 'ended']),
          answeredAt: instant.nullable(),
          alarmId: z.string().uuid().nullable().describe('state alarm: the missed check-in alarm'),
        })
        .strict(),
    ),
  })
  .strict()
  .openapi('CheckInRequest');

export const ownCheckInRequest = z
  .object({
    request: z
      .object({ id: z.string().uuid(), requestedAt: instant, dueAt: instant, requestedByName: z.string().nullable() })
      .strict()
      .nullable(),
  })
  .strict()
  .openapi('OwnCheckInRequest');

const locationShape = { id: z.number().int(), name: z.string(), isActive: z.boolean(), createdAt: instant };
export const location = z.object(locationShape).strict().openapi('Location');
export const listedLocation = z
  .object({ ...locationShape, canChange: z.boolean().optional().describe('Admins: whether they may change it') })
  .strict();

// ---------------------------------------------------------------------------------------------
// Held to the handlers' return types: a mismatch is a compile error naming the schema.

/** The field names of an object type (of every member of a union, of an array's elements). */
type Keys<T> = T extends readonly (infer E)[] ? Keys<E> : T extends object ? (T extends unknown ? keyof T : never) : never;
/**
 * True when every answer the handler can give is valid by the schema and both name the same
 * fields; otherwise false, which `Is` refuses.
 */
type Same<Schema, Handler> = [Handler] extends [Schema]
  ? [Keys<Schema>] extends [Keys<Handler>]
    ? [Keys<Handler>] extends [Keys<Schema>]
      ? true
      : false
    : false
  : false;
type Answer<C, M extends keyof C> = C[M] extends (...args: never[]) => infer R ? Awaited<R> : never;
type Is<T extends true> = T;
type Out<S extends z.ZodTypeAny> = z.output<S>;

export type ResponseTypesMatch = [
  Is<Same<Out<typeof alarm>[], Answer<AlarmsController, 'list'>>>,
  Is<Same<Out<typeof alarm>, Answer<AlarmsController, 'acknowledge'>>>,
  Is<Same<Out<typeof alarm>, Answer<AlarmsController, 'resolve'>>>,
  Is<Same<Out<typeof alarm>, Answer<AlarmsController, 'sendMessage'>>>,
  Is<Same<Out<typeof workerThread>, Answer<OwnAlarmMessagesController, 'thread'>>>,
  Is<Same<Out<typeof workerThread>, Answer<OwnAlarmMessagesController, 'reply'>>>,
  Is<Same<Out<typeof checkInRequestBatch>, Answer<CheckInRequestsController, 'create'>>>,
  Is<Same<Out<typeof checkInRequestBatch>[], Answer<CheckInRequestsController, 'list'>>>,
  Is<Same<Out<typeof ownCheckInRequest>, Answer<CheckInRequestsController, 'own'>>>,
  Is<Same<Out<typeof worker>[], Answer<DashboardsController, 'active'>>>,
  Is<Same<Out<typeof startedShift>, Answer<ShiftsController, 'start'>>>,
  Is<Same<Out<typeof worker>, Answer<ShiftsController, 'end'>>>,
  Is<Same<Out<typeof checkInRecorded>, Answer<CheckInsController, 'record'> & { status: 'safe' }>>,
  Is<Same<Out<typeof checkInExtended>, Answer<CheckInsController, 'extend'>>>,
  Is<Same<Out<typeof checkInExtended>, Answer<ShiftsController, 'startVisit'>>>,
  Is<Same<Out<typeof checkInExtended>, Answer<ShiftsController, 'endVisit'>>>,
  Is<Same<Out<typeof visitNote>, Answer<AlarmsController, 'revealVisitNote'>>>,
  Is<Same<Out<typeof currentEmergency>, Answer<OwnEmergencyController, 'current'>>>,
  Is<Same<Out<typeof emergencyMarkedSafe>, Answer<OwnEmergencyController, 'cancel'>>>,
  Is<Same<Out<typeof emergencyRaised> | Out<typeof testCallStarted>, Answer<EmergencyController, 'raise'>>>,
  Is<Same<Out<typeof activityEntry>[], Answer<ActivityController, 'list'>>>,
  Is<Same<Out<typeof activityEntry>, Answer<ActivityController, 'record'>>>,
  Is<Same<Out<typeof account>[], Answer<AccountsController, 'accounts'>>>,
  Is<Same<Out<typeof user>[], Answer<AccountsController, 'workers'>>>,
  Is<Same<Out<typeof userWithRelations>, Answer<UsersController, 'withRelations'>>>,
  Is<
    Same<
      Omit<Out<typeof team>, 'escalationPolicy' | 'onCallSchedule'>[],
      Omit<Answer<TeamsController, 'list'>[number], 'escalationPolicy' | 'onCallSchedule'>[]
    >
  >,
  Is<Same<Out<typeof publicUser>, Answer<AuthController, 'login'>>>,
  Is<Same<Out<typeof signedInUser>, Answer<AuthController, 'me'>>>,
  Is<Same<Out<typeof contact>[], Answer<ContactsController, 'list'>>>,
];
