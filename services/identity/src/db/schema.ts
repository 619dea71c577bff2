import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgSchema,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { messagingTables } from '@lws/messaging';
import type { OnCallSchedule } from '@lws/platform';

/** Every table of the identity service lives in its own PostgreSQL schema. */
export const identitySchema = pgSchema('identity');
export const messaging = messagingTables(identitySchema);
export const { outbox, processedEvents, deadLetters } = messaging;

export const ROLES = ['worker', 'admin', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];

export const users = identitySchema.table(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Always stored lower-cased: usernames are case-insensitive for people. */
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    role: text('role', { enum: ROLES }).notNull().default('worker'),
    medicalInfo: text('medical_info'),
    /** The language of their screens, texts and calls ("en", "cy"). */
    language: text('language').notNull().default('en'),
    /**
     * HMAC-SHA256 of the PIN under PIN_HASH_KEY: a stolen database alone cannot be tried against
     * the 10,000 PINs without the key. Not unique: a kiosk asks who you are before your PIN, so
     * two workers may share a PIN and choosing one reveals nothing about anyone else's.
     */
    pinHash: text('pin_hash'),
    /**
     * The worker's duress PIN, hashed as the PIN: it passes wherever a PIN is asked and
     * silently raises a duress emergency. Null: none set.
     */
    duressPinHash: text('duress_pin_hash'),
    pinLockedUntil: timestamp('pin_locked_until', { withTimezone: true }),
    /** Set after a superadmin reset: the temporary password must be replaced at the next change. */
    passwordIsTemporary: boolean('password_is_temporary').notNull().default(false),
    /**
     * Raised by every change other services copy (profile, settings, a contact), in the change's
     * transaction; its events carry it so a copy can ignore an event older than what it holds.
     */
    version: integer('version').notNull().default(1),
    /** When the version was last raised: reconciliation leaves a change this young to its event. */
    versionChangedAt: timestamp('version_changed_at', { withTimezone: true }).notNull().defaultNow(),
    /** An admin away until then: their deputy takes their place as a team's monitor. */
    awayUntil: timestamp('away_until', { withTimezone: true }),
    /** A worker's team (every worker has one); null for admins and the superadmin. */
    teamId: integer('team_id').references((): AnyPgColumn => teams.id),
    /**
     * Who created the account, for the superadmin to see (an admin created by an admin above all).
     * No foreign key: the creator's id stays after their account is deleted. Null: created by the
     * start-up bootstrap, or before this was recorded.
     */
    createdBy: integer('created_by'),
    /**
     * A deactivated account (by an admin, or by the organisation's directory through SCIM): it
     * cannot sign in by any route, its sessions are revoked and a shift in progress is ended.
     * Null: active.
     */
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** The organisation directory's own id for the person (SCIM externalId); null: not provisioned. */
    externalId: text('external_id'),
    /** Their work e-mail, as the directory or identity provider gives it; null: not known. */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_external_id_key').on(t.externalId),
    index('users_email_lower_idx').on(sql`lower(${t.email})`),
    check('users_role_check', sql`${t.role} in ('worker', 'admin', 'superadmin')`),
    check('users_worker_team', sql`${t.role} <> 'worker' or ${t.teamId} is not null`),
    index('users_team_idx').on(t.teamId),
    // A PIN texted from a phone finds its worker by number.
    index('users_phone_idx').on(t.phone),
    check('users_username_lower', sql`${t.username} = lower(${t.username})`),
  ],
);

export type UserRow = typeof users.$inferSelect;

/** A kind of timed visit a team defines (its risk level); the policy is ESCALATION_POLICY's form, null: the team's. */
export interface VisitTypeEntry {
  id: string;
  name: string;
  minutes: number;
  checkInInterval: number | null;
  smsToo: boolean;
  escalationPolicy: unknown;
}

export interface TeamMonitorEntry {
  userId: number;
  deputyUserId?: number;
}

/**
 * Teams: the workers of some locations, the admins who monitor them (in order, each with an
 * optional deputy), their check-in policy, and optionally their own escalation policy and
 * emergency numbers. An upgraded deployment has one, "Default", holding every worker and monitored
 * by every admin (migration 0006).
 */
export const teams = identitySchema.table(
  'teams',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    locationIds: integer('location_ids').array().notNull().default(sql`'{}'`),
    monitors: jsonb('monitors').$type<TeamMonitorEntry[]>().notNull().default(sql`'[]'::jsonb`),
    defaultInterval: integer('default_interval').notNull().default(60),
    allowedIntervals: integer('allowed_intervals').array().notNull().default(sql`'{30,50,60,120,240}'`),
    /**
     * The default interval the other services were last told applies to this team's workers who
     * saved none of their own; null: never told, so they assume 60. Identity tells them at start
     * when it differs from default_interval (teams from before the policy was enforced).
     */
    defaultHeard: integer('default_heard'),
    /** ESCALATION_POLICY's form; null: the organisation's. */
    escalationPolicy: jsonb('escalation_policy'),
    /** Empty: the organisation's EMERGENCY_NUMBER_1..3. */
    emergencyNumbers: text('emergency_numbers').array().notNull().default(sql`'{}'`),
    /** The team's workers get a call 2 minutes before each deadline that takes the PIN on the keypad. */
    voiceReminder: boolean('voice_reminder').notNull().default(false),
    /** The on-call rota (@lws/platform's OnCallSchedule); null: none, alarms go to the monitors in order. */
    onCallSchedule: jsonb('on_call_schedule').$type<OnCallSchedule>(),
    /** Whether a shift needs someone on call for its length: off, warn or refuse. */
    coverRequired: text('cover_required').$type<'off' | 'warn' | 'refuse'>().notNull().default('off'),
    /** The kinds of timed visit its workers pick from (risk levels), in the order shown. */
    visitTypes: jsonb('visit_types').$type<VisitTypeEntry[]>().notNull().default(sql`'[]'::jsonb`),
    /**
     * Whether other services have been told of the team (identity.team.changed.v1). A team made by a
     * migration ("Default") was not: identity tells them at its next start.
     */
    announced: boolean('announced').notNull().default(false),
    /** The directory group's own id when the team is provisioned through SCIM; null: not provisioned. */
    externalId: text('external_id'),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('teams_name_lower_key').on(sql`lower(${t.name})`), uniqueIndex('teams_external_id_key').on(t.externalId)],
);

export type TeamRow = typeof teams.$inferSelect;

/** An admin's calendar feed of their on-call stretches: the SHA-256 of its token (the address), one per admin. */
export const onCallFeeds = identitySchema.table(
  'on_call_feeds',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('on_call_feeds_token_hash_key').on(t.tokenHash)],
);

/** Wrong PIN entries; five within 15 minutes lock PIN actions for the account. */
export const pinFailures = identitySchema.table(
  'pin_failures',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    failedAt: timestamp('failed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('pin_failures_user_time_idx').on(t.userId, t.failedAt)],
);

export const emergencyContacts = identitySchema.table(
  'emergency_contacts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    relation: text('relation').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('emergency_contacts_user_idx').on(t.userId)],
);

export const CHECK_IN_INTERVALS = [30, 50, 60, 120, 240] as const;

export const userSettings = identitySchema.table(
  'user_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    primaryContact: text('primary_contact').notNull(),
    secondaryContact: text('secondary_contact'),
    checkInInterval: integer('check_in_interval').notNull().default(60),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('user_settings_interval_check', sql`${t.checkInInterval} in (30, 50, 60, 120, 240)`)],
);

/** Shared terminals an admin enrolled; the browser holds a random token, we keep its SHA-256. */
export const kiosks = identitySchema.table('kiosks', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** The location's name when enrolled: shown only while the location service no longer has it. */
  location: text('location').notNull(),
  /**
   * The location the kiosk stands at, by id (names change): its roster, which admins see it and
   * the location its sessions start shifts at follow it. Null for a kiosk enrolled by name before
   * ids were kept, until the start-up binding finds its location by that name.
   */
  locationId: integer('location_id'),
  tokenHash: text('token_hash').notNull().unique(),
  enrolledBy: integer('enrolled_by').notNull(),
  enrolledAt: timestamp('enrolled_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

/**
 * Rows of a bulk import (POST /api/users/import) while the gateway sends them in chunks; applying
 * or planning the import removes them, and rows older than an hour go with the next import. PINs
 * are kept only as their HMAC, like the accounts' own.
 */
export const userImportRows = identitySchema.table(
  'user_import_rows',
  {
    importId: uuid('import_id').notNull(),
    actorId: integer('actor_id').notNull(),
    line: integer('line').notNull(),
    username: text('username').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull(),
    role: text('role', { enum: ['worker', 'admin'] }).notNull(),
    team: text('team'),
    pinHash: text('pin_hash'),
    /** Null: a new account in English, an existing one keeps its language. */
    language: text('language'),
    stagedAt: timestamp('staged_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.line] }), index('user_import_rows_staged_idx').on(t.stagedAt)],
);

export type UserImportRow = typeof userImportRows.$inferSelect;

/** Development-only secrets generated on first start when not configured (never in production). */
export const localSecrets = identitySchema.table('local_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type EmergencyContactRow = typeof emergencyContacts.$inferSelect;
export type UserSettingsRow = typeof userSettings.$inferSelect;
export type KioskRow = typeof kiosks.$inferSelect;

export const PASSWORD_LOGIN = ['everyone', 'break_glass'] as const;
export type PasswordLogin = (typeof PASSWORD_LOGIN)[number];

export interface SsoGroupTeam {
  /** The group's value in the groups claim (a name, or Entra's object id). */
  group: string;
  teamId: number;
}

/**
 * Single sign-on through the organisation's OpenID Connect provider: one row (id 1), set by the
 * superadmin or, when SSO_ISSUER is set, by the environment at every start.
 */
export const ssoSettings = identitySchema.table(
  'sso_settings',
  {
    id: integer('id').primaryKey().default(1),
    enabled: boolean('enabled').notNull().default(false),
    /** "Sign in with <display name>" on the login page. */
    displayName: text('display_name').notNull().default(''),
    issuer: text('issuer').notNull().default(''),
    clientId: text('client_id').notNull().default(''),
    /** AES-256-GCM under SECRETS_KEY; never returned by any route. Null: none stored. */
    clientSecretEnc: text('client_secret_enc'),
    /** The claim that names a person at the provider: "sub", or Entra's "oid". Never the e-mail. */
    subjectClaim: text('subject_claim').notNull().default('sub'),
    /** Empty: any domain the provider vouches for. */
    emailDomains: text('email_domains').array().notNull().default(sql`'{}'`),
    /** Whether everyone may still sign in with a password, or only a superadmin (break glass). */
    passwordLogin: text('password_login', { enum: PASSWORD_LOGIN }).notNull().default('everyone'),
    /** A first sign-in may create the worker (just in time). */
    jitEnabled: boolean('jit_enabled').notNull().default(false),
    groupsClaim: text('groups_claim').notNull().default('groups'),
    /** Which group puts a new worker in which team, in order: the first that matches wins. */
    groupTeams: jsonb('group_teams').$type<SsoGroupTeam[]>().notNull().default(sql`'[]'::jsonb`),
    /** A first sign-in that names an existing account's e-mail links to it (off: issuer + subject only). */
    linkByEmail: boolean('link_by_email').notNull().default(false),
    /** Set from the environment (SSO_*): the screen shows it and cannot change it. */
    fromEnvironment: boolean('from_environment').notNull().default(false),
    version: integer('version').notNull().default(1),
    updatedBy: integer('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('sso_settings_single_row', sql`${t.id} = 1`),
    check('sso_settings_password_login', sql`${t.passwordLogin} in ('everyone', 'break_glass')`),
  ],
);

export type SsoSettingsRow = typeof ssoSettings.$inferSelect;

/** An account's identity at a provider: issuer + subject, never the e-mail alone. */
export const externalIdentities = identitySchema.table(
  'external_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index('external_identities_user_idx').on(t.userId)],
);

/** Bearer tokens of provisioning clients (SCIM); we keep the SHA-256 of the token, shown once. */
export const scimTokens = identitySchema.table('scim_tokens', {
  id: serial('id').primaryKey(),
  /** The client as the activity log names it, e.g. "Entra ID". */
  name: text('name').notNull(),
  /** The token's first characters, to tell tokens apart on the screen. */
  prefix: text('prefix').notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  createdBy: integer('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
});

export type ScimTokenRow = typeof scimTokens.$inferSelect;

/**
 * Machines' API tokens. A token acts as its creator (an admin or the superadmin) within their
 * teams, on the routes its scopes name, until it expires or is revoked. Only its SHA-256 is kept.
 */
export const apiTokens = identitySchema.table(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    /** The integration as the activity log and an alarm's history name it. */
    name: text('name').notNull(),
    /** The token's first characters and its last 4, to recognise it without holding it. */
    prefix: text('prefix').notNull(),
    last4: text('last4').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    /** No foreign key: a token whose creator was deleted stays listed (and refused) for the record. */
    createdBy: integer('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    useCount: integer('use_count').notNull().default(0),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: integer('revoked_by'),
  },
  (t) => [index('api_tokens_created_by_idx').on(t.createdBy)],
);

export type ApiTokenRow = typeof apiTokens.$inferSelect;
