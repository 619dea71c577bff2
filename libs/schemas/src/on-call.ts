import { z } from 'zod';
import { msg } from './msg';

// A team's on-call rota as the superadmin edits it (PUT /api/teams/{id}/on-call-schedule), and the
// overrides a colleague's cover adds (POST /api/teams/{id}/on-call/overrides). The gateway checks
// them here; identity checks that every person named is an admin and computes the timeline
// (@lws/platform's on-call).

export const COVER_REQUIRED = ['off', 'warn', 'refuse'] as const;
export type CoverRequired = (typeof COVER_REQUIRED)[number];
export const ON_CALL_ROTATIONS = ['daily', 'weekly', 'custom'] as const;
export const ON_CALL_MAX_LAYERS = 5;
export const ON_CALL_MAX_OVERRIDES = 500;
/** The longest stretch one override covers, and the longest timeline one request reads. */
export const ON_CALL_OVERRIDE_MAX_DAYS = 31;
export const ON_CALL_TIMELINE_MAX_DAYS = 62;
export const DEFAULT_ON_CALL_ZONE = 'Europe/London';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const LOCAL_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d$/;

const id = (message: string) =>
  z.number({ required_error: message, invalid_type_error: message }).int(message).min(1, message).max(2147483647, message);

/** A zone the runtime knows by its IANA name (Intl answers for it in browsers and Node alike). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}

const windowSchema = z
  .object({
    days: z
      .array(z.number().int().min(1).max(7), { invalid_type_error: msg('days must be a list of weekdays, 1 (Monday) to 7') })
      .min(1, msg('Choose at least one day'))
      .max(7)
      .refine((d) => new Set(d).size === d.length, msg('Each day once')),
    from: z.string().regex(HHMM, msg('Times are HH:mm, e.g. 20:00')),
    to: z.string().regex(HHMM, msg('Times are HH:mm, e.g. 08:00')),
  })
  .strict();

export const onCallLayerSchema = z
  .object({
    name: z
      .string({ required_error: msg('Layer name is required') })
      .trim()
      .min(1, msg('Layer name is required'))
      .max(60, msg('Layer name must be at most 60 characters')),
    start: z
      .string({ required_error: msg('When the rotation starts is required') })
      .regex(LOCAL_DATE_TIME, msg('The start is a local date and time, e.g. 2026-12-07T08:00')),
    rotation: z.enum(ON_CALL_ROTATIONS, { errorMap: () => ({ message: msg('The rotation is daily, weekly or custom') }) }),
    turnDays: z
      .number()
      .int(msg('A turn is a whole number of days'))
      .min(1, msg('A turn is 1 to 28 days'))
      .max(28, msg('A turn is 1 to 28 days'))
      .optional(),
    userIds: z
      .array(id(msg('Invalid monitor ID')), { invalid_type_error: msg('userIds must be a list of admins') })
      .min(1, msg('A layer needs at least one person'))
      .max(50, msg('At most 50 people in a layer')),
    windows: z.array(windowSchema).max(14, msg('At most 14 restricted-hours windows')).optional(),
  })
  .strict()
  .refine((l) => l.rotation !== 'custom' || l.turnDays !== undefined, {
    message: msg('A custom rotation needs its turn length in days'),
    path: ['turnDays'],
  });

/** The rota: the time zone its times are read in, and its layers in priority order. */
export const onCallScheduleSchema = z
  .object({
    timeZone: z.string().max(64).refine(isTimeZone, msg('Unknown time zone, e.g. Europe/London')).default(DEFAULT_ON_CALL_ZONE),
    layers: z.array(onCallLayerSchema).min(1, msg('A rota needs at least one layer')).max(ON_CALL_MAX_LAYERS, msg('At most 5 layers')),
  })
  .strict();

/** PUT /api/teams/{id}/on-call-schedule: the rota (null: none, the team's monitors) and whether a shift needs cover. */
export const putOnCallScheduleSchema = z
  .object({
    schedule: onCallScheduleSchema.nullable(),
    coverRequired: z.enum(COVER_REQUIRED, { errorMap: () => ({ message: msg('coverRequired is off, warn or refuse') }) }).default('off'),
  })
  .strict();
export type PutOnCallScheduleRequest = z.input<typeof putOnCallScheduleSchema>;

const DATE_TIME = msg('Times must be a date and time, e.g. 2026-12-12T08:00:00Z');
const instant = () => z.string({ required_error: DATE_TIME, invalid_type_error: DATE_TIME }).datetime({ offset: true, message: DATE_TIME });

/** POST /api/teams/{id}/on-call/overrides: someone covers a layer for a while. */
export const onCallOverrideSchema = z
  .object({
    layer: z
      .number()
      .int()
      .min(0)
      .max(ON_CALL_MAX_LAYERS - 1)
      .default(0),
    userId: id(msg('Invalid user ID')),
    start: instant(),
    end: instant(),
  })
  .strict()
  .refine((o) => Date.parse(o.end) > Date.parse(o.start), { message: msg('The end must be after the start'), path: ['end'] })
  .refine((o) => Date.parse(o.end) - Date.parse(o.start) <= ON_CALL_OVERRIDE_MAX_DAYS * 86_400_000, {
    message: msg('An override covers at most 31 days'),
    path: ['end'],
  });
export type OnCallOverrideRequest = z.input<typeof onCallOverrideSchema>;

/** GET /api/teams/{id}/on-call?at= : who is on call then (absent: now). */
export const onCallAtQuery = z.object({ at: instant().optional() }).strict();

/** GET /api/teams/{id}/on-call/timeline?from=&to= : at most 62 days (absent: the next 14 days). */
export const onCallTimelineQuery = z
  .object({ from: instant().optional(), to: instant().optional() })
  .strict()
  .refine((q) => !q.from || !q.to || Date.parse(q.to) > Date.parse(q.from), { message: msg('to must be after from'), path: ['to'] })
  .refine((q) => !q.from || !q.to || Date.parse(q.to) - Date.parse(q.from) <= ON_CALL_TIMELINE_MAX_DAYS * 86_400_000, {
    message: msg('A timeline covers at most 62 days'),
    path: ['to'],
  });
