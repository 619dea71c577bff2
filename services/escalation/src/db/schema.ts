import { boolean, index, integer, jsonb, pgSchema, smallint, text, timestamp, uniqueIndex, uuid, bigint } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';
import type { EventMap, VisitSummary } from '@lws/contracts';
import type { OnCallSchedule } from '@lws/platform';
import type { FrozenPolicy } from '../alarms/policy';

/** Every table of the escalation service lives in its own PostgreSQL schema. */
export const escalationSchema = pgSchema('escalation');
export const messaging = messagingTables(escalationSchema);
export const { outbox, processedEvents, deadLetters } = messaging;

const at = (name: string) => timestamp(name, { withTimezone: true });

/** An alarm's outcome on resolving (the gateway's resolveAlarmSchema and the contract's one_of list the same). */
export const ALARM_VERDICTS = ['genuine', 'false_alarm', 'test'] as const;
export const INCIDENT_SEVERITIES = ['minor', 'serious', 'critical'] as const;
export const FALSE_ALARM_REASONS = ['forgot_check_in', 'no_signal', 'device', 'other'] as const;

/**
 * What escalation knows of each user, from identity's and shifts' events. deadline_as_of is the
 * instant of the event that set next_check_in_at: the shift and check-in subjects are not ordered
 * with each other, so an older event never moves a newer deadline back.
 */
export const workers = escalationSchema.table(
  'workers',
  {
    userId: integer('user_id').primaryKey(),
    name: text('name'),
    phone: text('phone'),
    role: text('role'),
    checkInInterval: integer('check_in_interval').notNull().default(60),
    primaryContact: text('primary_contact'),
    secondaryContact: text('secondary_contact'),
    onShift: boolean('on_shift').notNull().default(false),
    shiftId: uuid('shift_id'),
    location: text('location'),
    nextCheckInAt: at('next_check_in_at'),
    deadlineAsOf: at('deadline_as_of'),
    deletedAt: at('deleted_at'),
    /** shifts' version of the worker whose shift and deadline these are (0: none heard with a version). */
    shiftsVersion: integer('shifts_version').notNull().default(0),
    /** identity's version of the user whose name, phone and role these are (0: none heard with a version). */
    profileVersion: integer('profile_version').notNull().default(0),
    /** identity's version of the user whose settings these are. */
    settingsVersion: integer('settings_version').notNull().default(0),
    /** A worker's team (identity's, with the profile): whose monitors and policy their alarms follow. */
    teamId: integer('team_id'),
    /** An admin away until then: their deputy takes their place as a team's monitor. */
    awayUntil: at('away_until'),
    /** The language the worker's texts (and their contacts') are written in; null: English. */
    language: text('language'),
    /** "Where I'll be" of the current (or last) shift. */
    shiftNote: text('shift_note'),
    /** The position of the worker's last check-in that had one (deleted 30 days after its shift ends). */
    lastPosition: jsonb('last_position').$type<KnownPosition>(),
    /** The timed visit under way (its end is the deadline when sooner than the regular one). */
    visit: jsonb('visit').$type<VisitSummary>(),
  },
  (t) => [index('workers_on_shift_next_idx').on(t.nextCheckInAt, t.userId).where(sql`${t.onShift}`)],
);

/** A position as escalation keeps it: where, how precisely, when, and in which shift. */
export interface KnownPosition {
  lat: number;
  lng: number;
  accuracyM?: number;
  at: string;
  shiftId: string;
}

/** A team monitor, as identity lists them: in order, each with an optional deputy. */
export interface TeamMonitor {
  userId: number;
  deputyUserId?: number;
}

/**
 * Escalation's copy of identity's teams (identity.team.changed.v1): who monitors each team, in
 * order, and the team's own escalation policy and emergency numbers, frozen onto its alarms.
 */
export interface VisitTypePolicy {
  id: string;
  escalationPolicy: unknown;
}

export const teams = escalationSchema.table('teams', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  monitors: jsonb('monitors').$type<TeamMonitor[]>().notNull().default([]),
  /** The team's policy (ESCALATION_POLICY's form); null: the organisation's. */
  escalationPolicy: jsonb('escalation_policy'),
  /** Empty: the organisation's EMERGENCY_NUMBER_1..3. */
  emergencyNumbers: text('emergency_numbers').array().notNull().default(sql`'{}'::text[]`),
  /** The team's workers get a keypad PIN call 2 minutes before each deadline. */
  voiceReminder: boolean('voice_reminder').notNull().default(false),
  /** The team's on-call rota (@lws/platform's OnCallSchedule); null: none. Resolved when an alarm opens. */
  onCallSchedule: jsonb('on_call_schedule').$type<OnCallSchedule>(),
  /** Its visit types' own escalation policies (ESCALATION_POLICY's form; null: the team's), by type id. */
  visitTypes: jsonb('visit_types').$type<VisitTypePolicy[]>().notNull().default([]),
  version: integer('version').notNull(),
  deletedAt: at('deleted_at'),
});

export type TeamRow = typeof teams.$inferSelect;

/** The daily notice of gaps in the on-call rotas: one row per London day it was sent, so it goes once whatever the replicas. */
export const onCallNotices = escalationSchema.table('on_call_notices', {
  day: text('day').primaryKey(),
  sentAt: at('sent_at').notNull(),
  /** The teams it told of gaps. */
  teams: integer('teams').notNull(),
});

/** Shifts that ended: a check-in or start of one of them that arrives later must not put the worker back on shift. */
export const endedShifts = escalationSchema.table('ended_shifts', {
  shiftId: uuid('shift_id').primaryKey(),
  userId: integer('user_id').notNull(),
  endedAt: at('ended_at').notNull(),
});

/** A worker's emergency contacts; a deleted one stays as a marker so a late update cannot bring it back. */
export const workerContacts = escalationSchema.table(
  'worker_contacts',
  {
    contactId: integer('contact_id').primaryKey(),
    userId: integer('user_id').notNull(),
    name: text('name'),
    phone: text('phone'),
    relation: text('relation'),
    deleted: boolean('deleted').notNull().default(false),
    /** identity's version of the owner when this contact last changed. */
    version: integer('version').notNull().default(0),
  },
  (t) => [index('worker_contacts_user_idx').on(t.userId)],
);

/**
 * checkin: a worker's check-in deadline; alarm: an alarm's steps; request: a monitor's "check in
 * now"; message: the SMS that follows a monitor's message the worker has not seen.
 */
export const DEADLINE_KINDS = ['checkin', 'alarm', 'request', 'message'] as const;

/**
 * A check-in row's deadline T (payload.dueAt). Casting text to a timestamp is only STABLE (it
 * reads DateStyle), which a generated column may not use; the payload holds toISOString()'s UTC
 * form, so it is read field by field. Any other form reads as null.
 */
const checkinDeadline = sql`case when payload->>'dueAt' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}Z$' then timezone('UTC', make_timestamp(
  substr(payload->>'dueAt', 1, 4)::int, substr(payload->>'dueAt', 6, 2)::int, substr(payload->>'dueAt', 9, 2)::int,
  substr(payload->>'dueAt', 12, 2)::int, substr(payload->>'dueAt', 15, 2)::int, substr(payload->>'dueAt', 18, 6)::float8)) end`;

/**
 * Every timer escalation owns, one row per job key (`checkin:<userId>`, `alarm:<alarmId>`).
 * Schedulers claim due rows with FOR UPDATE SKIP LOCKED; version is the fencing token: whoever
 * moves a deadline bumps it, and a claim only writes back over the version it claimed.
 */
export const deadlines = escalationSchema.table(
  'deadlines',
  {
    jobKey: text('job_key').primaryKey(),
    kind: text('kind', { enum: DEADLINE_KINDS }).notNull(),
    userId: integer('user_id').notNull(),
    step: text('step').notNull(),
    dueAt: at('due_at').notNull(),
    version: integer('version').notNull().default(1),
    payload: jsonb('payload').$type<DeadlinePayload>().notNull(),
    /**
     * The order schedulers claim in (PRIORITY): derived from the row by PostgreSQL, so every writer
     * (a new deadline, a step's follow-up, a repair) keeps it right without knowing of it.
     */
    priority: smallint('priority')
      .generatedAlwaysAs(
        sql`case when kind = 'alarm' and payload ? 'urgent' then 0 when kind = 'alarm' or step = 'missed' then 1 else 2 end`,
      )
      .notNull(),
    /**
     * When the row is due at priority 1, which the scheduler claims it at: an alarm step's and a
     * missed step's due time; a reminder's check-in deadline, past which it is a missed check-in
     * (a reminder left unsent while the service was down is not left behind every other missed
     * check-in). Null for an emergency's rows, which are claimed before.
     */
    alarmDueAt: at('alarm_due_at').generatedAlwaysAs(
      sql`case when kind = 'alarm' and payload ? 'urgent' then null when kind = 'alarm' or step = 'missed' then due_at else ${checkinDeadline} end`,
    ),
    /** Failed tries of the current step (0 once it fires), and the last one's error: what an operator reads on the row. */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    index('deadlines_claim_idx').on(t.priority, t.dueAt),
    index('deadlines_alarm_claim_idx').on(t.alarmDueAt).where(sql`alarm_due_at is not null`),
    index('deadlines_user_idx').on(t.userId),
  ],
);

/**
 * Claim order, most urgent first: an emergency's alarm (duress included) never waits behind a
 * flood of missed check-ins, nor a missed check-in behind a flood of reminders.
 */
export const PRIORITY = { emergency: 0, missed: 1, reminder: 2 } as const;
export const PRIORITIES = [PRIORITY.emergency, PRIORITY.missed, PRIORITY.reminder] as const;

export interface DeadlinePayload {
  /** checkin: the check-in deadline itself (T). */
  dueAt?: string;
  shiftId?: string;
  /** alarm: the policy step to run, or the step a call round belongs to. */
  alarmId?: string;
  index?: number;
  /** alarm call_watchdog: the call it guards. */
  requestId?: string;
  /** alarm: an emergency's (duress included), claimed before everything else. */
  urgent?: true;
  /** request: the check-in request it runs (its dueAt is when it opens the missed check-in alarm). */
  checkinRequestId?: string;
  /** message: the monitor's message whose SMS it sends. */
  messageId?: string;
}

export const ALARM_KINDS = ['missed_check_in', 'emergency'] as const;
export const ALARM_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];
export type AlarmState = (typeof ALARM_STATES)[number];

export const alarms = escalationSchema.table(
  'alarms',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    kind: text('kind', { enum: ALARM_KINDS }).notNull(),
    state: text('state', { enum: ALARM_STATES }).notNull().default('open'),
    /** The worker's team when the alarm opened (null: none known), whose monitors and policy it follows. */
    teamId: integer('team_id'),
    /** The policy as it was when the alarm opened; configuration changes never alter a running alarm. */
    policy: jsonb('policy').$type<FrozenPolicy>().notNull(),
    /** The policy step running now (or last run). */
    stepIndex: integer('step_index').notNull().default(0),
    callRound: integer('call_round').notNull().default(0),
    callAcceptedAt: at('call_accepted_at'),
    openedAt: at('opened_at').notNull(),
    /** missed_check_in: the deadline that passed. */
    dueAt: at('due_at'),
    workerName: text('worker_name'),
    location: text('location'),
    shiftId: uuid('shift_id'),
    /** emergency: the emergency it answers (one alarm per emergency). */
    emergencyId: uuid('emergency_id'),
    /** emergency: when the worker pressed (shifts' time), which the time to the provider is measured from. */
    raisedAt: at('raised_at'),
    acknowledgedBy: integer('acknowledged_by'),
    acknowledgedAt: at('acknowledged_at'),
    resolvedBy: integer('resolved_by'),
    resolvedAt: at('resolved_at'),
    /** Acknowledged or resolved by a machine: the API token's name (the *_by columns hold its creator). */
    acknowledgedVia: text('acknowledged_via'),
    resolvedVia: text('resolved_via'),
    verdict: text('verdict', { enum: ALARM_VERDICTS }),
    /** The outcome's detail: a genuine incident's severity, a false alarm's reason (null before outcomes were recorded). */
    severity: text('severity', { enum: INCIDENT_SEVERITIES }),
    reason: text('reason', { enum: FALSE_ALARM_REASONS }),
    note: text('note'),
    lateCheckInAt: at('late_check_in_at'),
    stepsStoppedReason: text('steps_stopped_reason'),
    /** When every message telling someone of the alarm had failed: its calls start then, not after the acknowledgement wait. */
    nobodyReachedAt: at('nobody_reached_at'),
    /** Raised by the worker's duress PIN: every step runs at once, and nothing of it reaches the worker. */
    duress: boolean('duress').notNull().default(false),
    /** When the worker said they are safe with their PIN on the emergency screen. */
    workerSafeAt: at('worker_safe_at'),
    /** ...and it was the duress PIN: their screen shows the same, the alarm keeps escalating. */
    safeUnderDuress: boolean('safe_under_duress').notNull().default(false),
    /** The worker's "where I'll be" and last known position when the alarm opened. */
    shiftNote: text('shift_note'),
    lastPosition: jsonb('last_position').$type<KnownPosition>(),
    /** Opened on this timed visit (its timer ran out, or an emergency during it): its sealed note may be revealed. */
    visit: jsonb('visit').$type<VisitSummary>(),
  },
  (t) => [
    index('alarms_opened_idx').on(t.openedAt, t.id),
    // The open ones, for the alarm gauges every scrape reads.
    index('alarms_unresolved_idx').on(t.kind, t.openedAt).where(sql`${t.state} <> 'resolved'`),
    index('alarms_user_idx').on(t.userId, t.openedAt),
    uniqueIndex('alarms_emergency_idx').on(t.emergencyId),
    // Reconciliation digests the emergencies of the last day.
    index('alarms_emergency_opened_idx').on(t.openedAt).where(sql`${t.kind} = 'emergency'`),
    // One missed-check-in alarm per deadline, even if two paths (scheduler, auditor) race to open it.
    uniqueIndex('alarms_missed_deadline_idx').on(t.userId, t.dueAt).where(sql`${t.kind} = 'missed_check_in'`),
  ],
);

/**
 * An emergency pressed while the worker's earlier emergency alarm was still escalating: it joined
 * that alarm instead of opening another (a frightened person presses twice). Reconciliation counts
 * it as heard, as it does an alarm's own emergency.
 */
export const joinedEmergencies = escalationSchema.table(
  'joined_emergencies',
  {
    emergencyId: uuid('emergency_id').primaryKey(),
    alarmId: uuid('alarm_id').notNull(),
    userId: integer('user_id').notNull(),
    raisedAt: at('raised_at').notNull(),
    joinedAt: at('joined_at').notNull(),
  },
  (t) => [index('joined_emergencies_joined_idx').on(t.joinedAt)],
);

/** AlarmView.history: one line per step, oldest first. */
export const alarmEvents = escalationSchema.table(
  'alarm_events',
  {
    seq: bigint('seq', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    alarmId: uuid('alarm_id').notNull(),
    at: at('at').notNull(),
    text: text('text').notNull(),
    /**
     * The same moment in words for the worker's own emergency screen, in English (their screen
     * translates it); null: not shown to them. `workerName`: the person it names ({{name}}).
     */
    workerText: text('worker_text'),
    workerName: text('worker_name'),
  },
  (t) => [index('alarm_events_alarm_idx').on(t.alarmId, t.seq)],
);

export const CALL_PURPOSES = ['emergency_number', 'primary_contact'] as const;

/** Voice calls escalation asked for, so an outcome advances the right alarm exactly once. */
export const calls = escalationSchema.table(
  'calls',
  {
    requestId: uuid('request_id').primaryKey(),
    alarmId: uuid('alarm_id').notNull(),
    purpose: text('purpose', { enum: CALL_PURPOSES }).notNull(),
    round: integer('round').notNull(),
    numberIndex: integer('number_index').notNull(),
    phone: text('phone').notNull(),
    /** A repeat round runs no policy step after it. */
    repeat: boolean('repeat').notNull().default(false),
    requestedAt: at('requested_at').notNull(),
    /** accepted, not_accepted, ..., or timeout when the watchdog gave up waiting. */
    outcome: text('outcome'),
    completedAt: at('completed_at'),
  },
  (t) => [index('calls_alarm_idx').on(t.alarmId, t.round, t.numberIndex)],
);

/**
 * Every message, call and push escalation asked for on an alarm's behalf, until notifications
 * confirms it has taken it (any delivery status for its request id). An unconfirmed one is asked
 * for again with the same request id (notifications deduplicates it) while the alarm is open.
 */
export const notificationRequests = escalationSchema.table(
  'notification_requests',
  {
    requestId: uuid('request_id').primaryKey(),
    alarmId: uuid('alarm_id').notNull(),
    /** The escalation.notification.requested.v1 data, sent again as it was. */
    request: jsonb('request').$type<EventMap['escalation.notification.requested.v1']>().notNull(),
    requestedAt: at('requested_at').notNull(),
    asks: integer('asks').notNull().default(1),
    nextAskAt: at('next_ask_at'),
    confirmedAt: at('confirmed_at'),
    /** What notifications last reported of it: pending, sent or failed (final: no more asking). */
    lastStatus: text('last_status'),
    alertedAt: at('alerted_at'),
  },
  // Due: unconfirmed ones to ask for again, confirmed ones whose outcome is not known yet.
  (t) => [index('notification_requests_next_ask_idx').on(t.nextAskAt).where(sql`${t.nextAskAt} is not null`)],
);

/**
 * Work one replica does at a time (reconciliation): a replica holds a lease by name until it
 * expires; another takes it over only then, so a replica that died hands it on by itself.
 */
export const leases = escalationSchema.table('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: at('expires_at').notNull(),
});

/**
 * "Check in now": one row per worker asked, a batch per monitor action. Open while answered_at,
 * alarm_id and closed_at are all null; its timer is the deadline `request:<id>` (SMS, then the alarm).
 */
export const checkinRequests = escalationSchema.table(
  'checkin_requests',
  {
    id: uuid('id').primaryKey(),
    batchId: uuid('batch_id').notNull(),
    userId: integer('user_id').notNull(),
    /** The worker's team when asked: which admins see the request. */
    teamId: integer('team_id'),
    /** The batch was asked of this team's workers on shift (null: of one worker). */
    askedTeamId: integer('asked_team_id'),
    requestedBy: integer('requested_by').notNull(),
    requestedVia: text('requested_via'),
    requestedAt: at('requested_at').notNull(),
    dueAt: at('due_at').notNull(),
    answeredAt: at('answered_at'),
    alarmId: uuid('alarm_id'),
    /** The shift ended before an answer. */
    closedAt: at('closed_at'),
  },
  (t) => [
    index('checkin_requests_batch_idx').on(t.batchId),
    index('checkin_requests_requested_idx').on(t.requestedAt),
    index('checkin_requests_open_idx').on(t.userId).where(sql`answered_at is null and alarm_id is null and closed_at is null`),
  ],
);

export type CheckinRequestRow = typeof checkinRequests.$inferSelect;

/** The texts a monitor and the worker exchange during an alarm (a thread on its history). */
export const alarmMessages = escalationSchema.table(
  'alarm_messages',
  {
    id: uuid('id').primaryKey(),
    alarmId: uuid('alarm_id').notNull(),
    fromWorker: boolean('from_worker').notNull(),
    byUserId: integer('by_user_id').notNull(),
    /** Sent by a machine's API token, by its name. */
    via: text('via'),
    text: text('text').notNull(),
    at: at('at').notNull(),
    /** A monitor's message: when the worker's screen showed it (no SMS follows after that). */
    seenAt: at('seen_at'),
  },
  (t) => [index('alarm_messages_alarm_idx').on(t.alarmId, t.at)],
);

export type AlarmMessageRow = typeof alarmMessages.$inferSelect;
export type WorkerRow = typeof workers.$inferSelect;
export type DeadlineRow = typeof deadlines.$inferSelect;
export type AlarmRow = typeof alarms.$inferSelect;
export type CallRow = typeof calls.$inferSelect;
