import { boolean, check, doublePrecision, index, integer, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';

/** Every table of the shifts service lives in its own PostgreSQL schema. */
export const shiftsSchema = pgSchema('shifts');
export const messaging = messagingTables(shiftsSchema);
export const { outbox, processedEvents, deadLetters } = messaging;

export const END_REASONS = ['worker', 'forced', 'user_deleted', 'deactivated'] as const;
export type EndReason = (typeof END_REASONS)[number];

const at = (name: string) => timestamp(name, { withTimezone: true });

export const shifts = shiftsSchema.table(
  'shifts',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    location: text('location').notNull(),
    startedAt: at('started_at').notNull(),
    endedAt: at('ended_at'),
    endedBy: integer('ended_by'),
    endReason: text('end_reason', { enum: END_REASONS }),
    /** "Where I'll be", as the worker wrote it at the start. */
    note: text('note'),
  },
  (t) => [
    index('shifts_user_started_idx').on(t.userId, t.startedAt),
    // Behind the row lock on worker_state: even a bug there cannot leave a worker with two open shifts.
    uniqueIndex('shifts_one_open_per_user').on(t.userId).where(sql`${t.endedAt} is null`),
    check('shifts_end_reason_check', sql`${t.endReason} is null or ${t.endReason} in ('worker', 'forced', 'user_deleted', 'deactivated')`),
  ],
);

export const checkIns = shiftsSchema.table(
  'check_ins',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    shiftId: uuid('shift_id')
      .notNull()
      .references(() => shifts.id, { onDelete: 'cascade' }),
    location: text('location').notNull(),
    checkedInAt: at('checked_in_at').notNull(),
    nextCheckInAt: at('next_check_in_at').notNull(),
    status: text('status').notNull().default('safe'),
    isSimulation: boolean('is_simulation').notNull().default(false),
    /** The client's Idempotency-Key: a retried request answers the first check-in. */
    idempotencyKey: text('idempotency_key'),
    /** The device's position, when the worker allows it; deleted 30 days after the shift ends. */
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    accuracyM: doublePrecision('accuracy_m'),
  },
  (t) => [
    index('check_ins_user_time_idx').on(t.userId, t.checkedInAt),
    index('check_ins_shift_idx').on(t.shiftId),
    uniqueIndex('check_ins_user_idempotency_key').on(t.userId, t.idempotencyKey),
  ],
);

export const VISIT_END_REASONS = ['worker', 'check_in', 'shift_ended'] as const;
export type VisitEndReason = (typeof VISIT_END_REASONS)[number];

/**
 * Timed visits: a risky part of a shift with its own timer. The note is sealed (AES-256-GCM under
 * SECRETS_KEY) and opened only for someone handling the visit's alarm; it and the address go 30
 * days after the shift ends, with the check-ins' positions.
 */
export const visits = shiftsSchema.table(
  'visits',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    shiftId: uuid('shift_id')
      .notNull()
      .references(() => shifts.id, { onDelete: 'cascade' }),
    /** An address or a location; null once deleted after the retention period. */
    where: text('where'),
    startedAt: at('started_at').notNull(),
    /** When its timer runs out; "+15 min" moves it. */
    endsAt: at('ends_at').notNull(),
    endedAt: at('ended_at'),
    endReason: text('end_reason', { enum: VISIT_END_REASONS }),
    sealedNote: text('sealed_note'),
    /** Set when the note and address were deleted after the retention period. */
    purgedAt: at('purged_at'),
  },
  (t) => [
    index('visits_user_started_idx').on(t.userId, t.startedAt),
    index('visits_shift_idx').on(t.shiftId),
    check('visits_end_reason_check', sql`${t.endReason} is null or ${t.endReason} in ('worker', 'check_in', 'shift_ended')`),
  ],
);

/** Development-only secrets (the key that seals visit notes when SECRETS_KEY is not set), kept across restarts. */
export const localSecrets = shiftsSchema.table('local_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
});

/** The visit under way, as worker_state keeps it for the worker's screen and the dashboards. */
export interface CurrentVisit {
  id: string;
  where: string;
  startedAt: string;
  endsAt: string;
  hasNote: boolean;
  /** The team's visit type it was started as. */
  typeId?: string;
  typeName?: string;
  /** Minutes between check-ins while it lasts (the type's); absent: the worker's own. */
  checkInInterval?: number;
  smsToo?: boolean;
}

/** Emergencies a worker raised; escalation owns what happens next. */
export const emergencies = shiftsSchema.table(
  'emergencies',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull(),
    shiftId: uuid('shift_id'),
    /** Raised during this timed visit. */
    visitId: uuid('visit_id'),
    location: text('location'),
    raisedAt: at('raised_at').notNull(),
    /** Raised by the worker's duress PIN. */
    duress: boolean('duress').notNull().default(false),
  },
  (t) => [
    index('emergencies_user_idx').on(t.userId, t.raisedAt),
    // Reconciliation reads the emergencies of the last day.
    index('emergencies_raised_idx').on(t.raisedAt),
  ],
);

/**
 * One row per user: the identity fields shifts needs (from identity's events) and the current
 * shift, denormalised so a dashboard page is one indexed read. Every start, end and check-in
 * locks this row first, so a double submit or a race is serialised per worker.
 */
export const workerState = shiftsSchema.table(
  'worker_state',
  {
    userId: integer('user_id').primaryKey(),
    name: text('name'),
    username: text('username'),
    phone: text('phone'),
    role: text('role'),
    checkInInterval: integer('check_in_interval').notNull().default(60),
    onShift: boolean('on_shift').notNull().default(false),
    currentShiftId: uuid('current_shift_id'),
    location: text('location'),
    shiftStartedAt: at('shift_started_at'),
    latestCheckInId: uuid('latest_check_in_id'),
    latestCheckInAt: at('latest_check_in_at'),
    latestCheckInLocation: text('latest_check_in_location'),
    nextCheckInAt: at('next_check_in_at'),
    /** "Where I'll be" of the current shift. */
    shiftNote: text('shift_note'),
    /** "+15 min" presses and minutes this shift has left, set when it starts. */
    extensionsLeft: integer('extensions_left').notNull().default(0),
    extensionMinutesLeft: integer('extension_minutes_left').notNull().default(0),
    /** The timed visit under way, if any (its end is the deadline, when sooner than the regular one). */
    visit: jsonb('visit').$type<CurrentVisit>(),
    /**
     * Raised by every change to the worker's shift, deadline or emergencies, in the change's
     * transaction; the events carry it (worker_version) so a copy can ignore an older one.
     */
    version: integer('version').notNull().default(0),
    /** When the version was last raised (the database's clock): reconciliation waits for an event this young to arrive rather than repair. */
    changedAt: at('changed_at'),
    /** identity's version of the user whose name, username, phone and role these are (0: none heard with a version). */
    identityProfileVersion: integer('identity_profile_version').notNull().default(0),
    /** identity's version of the user whose check-in interval this is. */
    identitySettingsVersion: integer('identity_settings_version').notNull().default(0),
  },
  (t) => [
    // due and missed pages: keyset on (next_check_in_at, user_id) among workers on shift.
    index('worker_state_next_check_in_idx').on(t.nextCheckInAt, t.userId).where(sql`${t.onShift}`),
    // active pages: keyset on user_id among workers on shift.
    index('worker_state_on_shift_idx').on(t.onShift, t.userId),
    check('worker_state_interval_check', sql`${t.checkInInterval} in (30, 50, 60, 120, 240)`),
    check(
      'worker_state_shift_fields_check',
      sql`${t.onShift} = (${t.currentShiftId} is not null and ${t.shiftStartedAt} is not null and ${t.nextCheckInAt} is not null and ${t.location} is not null)`,
    ),
  ],
);

/**
 * Users identity has deleted. Events about a user can arrive in any order across subjects; a
 * late created, updated or settings event must not bring a deleted user's row back.
 */
export const deletedUsers = shiftsSchema.table('deleted_users', {
  userId: integer('user_id').primaryKey(),
  deletedAt: at('deleted_at').notNull(),
});

/** The locations a shift may start at, from the locations service's events. */
export const locations = shiftsSchema.table(
  'locations',
  {
    locationId: integer('location_id').primaryKey(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull(),
    /** Kept as a marker, so an update delivered after the delete does not resurrect it. */
    deletedAt: at('deleted_at'),
  },
  (t) => [index('locations_name_lower_idx').on(sql`lower(${t.name})`)],
);

export type ShiftRow = typeof shifts.$inferSelect;
export type CheckInRow = typeof checkIns.$inferSelect;
export type WorkerStateRow = typeof workerState.$inferSelect;
export type VisitRow = typeof visits.$inferSelect;
