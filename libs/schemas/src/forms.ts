import { z } from 'zod';
import { msg } from './msg';
import { creationPhone, internationalPhone, normaliseUkPhone, profilePhone } from './phone';

/** Fields a client may not send are refused by name rather than silently ignored. */
export function unknownFieldErrors(issue: z.ZodIssueOptionalMessage, ctx: z.ErrorMapCtx) {
  if (issue.code === 'unrecognized_keys') return { message: `Unknown field: ${issue.keys.join(', ')}` };
  return { message: ctx.defaultError };
}

/** POST /api/auth/login: the username is matched lower-cased. */
export const loginSchema = z
  .object({
    username: z
      .string({ required_error: msg('Username is required'), invalid_type_error: msg('Username is required') })
      .trim()
      .min(1, msg('Username is required'))
      .max(100, msg('Username is too long'))
      .transform((u) => u.toLowerCase()),
    password: z
      .string({ required_error: msg('Password is required'), invalid_type_error: msg('Password is required') })
      .min(1, msg('Password is required'))
      .max(200, msg('Password is too long')),
    rememberMe: z
      .boolean({ invalid_type_error: msg('rememberMe must be true or false') })
      .optional()
      .default(false),
  })
  .strict();

export const PIN_FORMAT = msg('PIN must be exactly 4 digits');
const blankAsAbsent = (v: unknown) => (v === '' || v === null ? undefined : v);

/** The roles a monitor may create (spec section 5); the superadmin is never created. */
export const CREATABLE_ROLES = ['worker', 'admin'] as const;
export type CreatableRole = (typeof CREATABLE_ROLES)[number];

/**
 * POST /api/users (spec section 5, "User creation"). A blank PIN asks identity to generate one,
 * shown once; blank medical information is left out.
 */
const teamIdNumber = z
  .number({ invalid_type_error: msg('Invalid team ID') })
  .int(msg('Invalid team ID'))
  .min(1, msg('Invalid team ID'))
  .max(2147483647, msg('Invalid team ID'));

export const createUserSchema = z
  .object({
    username: z
      .string({ required_error: msg('Username must be at least 3 characters') })
      .trim()
      .toLowerCase()
      .min(3, msg('Username must be at least 3 characters'))
      .max(50, msg('Username must be at most 50 characters'))
      .regex(/^[a-z0-9._-]+$/, msg('Username may contain only letters, digits, ".", "_" and "-"')),
    password: z
      .string({ required_error: msg('Password must be at least 6 characters') })
      .min(6, msg('Password must be at least 6 characters'))
      .max(200, msg('Password must be at most 200 characters')),
    name: z
      .string({ required_error: msg('Name must be at least 2 characters') })
      .trim()
      .min(2, msg('Name must be at least 2 characters'))
      .max(100, msg('Name must be at most 100 characters')),
    phone: creationPhone,
    role: z.enum(CREATABLE_ROLES, { errorMap: () => ({ message: msg('Role must be worker or admin') }) }).default('worker'),
    medicalInfo: z.preprocess(
      (v) => (typeof v === 'string' && !v.trim() ? undefined : v),
      z
        .string({ invalid_type_error: msg('Medical information must be text') })
        .trim()
        .max(2000, msg('Medical information must be at most 2000 characters'))
        .optional(),
    ),
    pinCode: z.preprocess(
      blankAsAbsent,
      z
        .string({ invalid_type_error: PIN_FORMAT })
        .regex(/^\d{4}$/, PIN_FORMAT)
        .optional(),
    ),
    /** A worker's team; without it the oldest team (an upgraded deployment's "Default"). */
    teamId: teamIdNumber.optional(),
    /**
     * The superadmin's new administrator: the teams they will monitor, each after its present
     * monitors. None: only the one team there is, when there is one (an admin's new administrator
     * monitors that admin's teams).
     */
    monitorTeamIds: z
      .array(teamIdNumber, { invalid_type_error: msg('Teams must be a list of team IDs') })
      .max(100, msg('At most 100 teams'))
      .optional(),
    /** Their screens', texts' and calls' language (the gateway checks LWS speaks it); none: English. */
    language: z
      .string({ invalid_type_error: msg('Language must be one LWS speaks') })
      .regex(/^[a-z]{2,3}$/, msg('Language must be one LWS speaks'))
      .optional(),
  })
  .strict();
export type CreateUserForm = z.input<typeof createUserSchema>;
export type CreateUserRequest = z.output<typeof createUserSchema>;

export const profileName = z
  .string({ required_error: msg('Name is too short'), invalid_type_error: msg('Name is too short') })
  .trim()
  .min(2, msg('Name is too short'))
  .max(100, msg('Name must be at most 100 characters'));

/** The profile's "Edit Details" (PATCH /api/users/{id} with a name and phone). */
export const profileDetailsSchema = z.object({ name: profileName, phone: profilePhone }, { errorMap: unknownFieldErrors }).strict();
export type ProfileDetailsForm = z.input<typeof profileDetailsSchema>;

/** An emergency contact's relation to the worker ("Partner", "Parent", "Friend"). */
export const contactRelation = z
  .string({ required_error: msg('Relation is required'), invalid_type_error: msg('Relation is required') })
  .trim()
  .min(1, msg('Relation is required'))
  .max(50, msg('Relation must be at most 50 characters'));

/** The emergency contact dialog (POST and PATCH /api/emergency-contacts add the owner's id). */
export const contactDetailsSchema = z
  .object({ name: profileName, phone: profilePhone, relation: contactRelation }, { errorMap: unknownFieldErrors })
  .strict();
export type ContactDetailsForm = z.input<typeof contactDetailsSchema>;

/**
 * A required line of text, trimmed, at most `max` characters. Its messages are whole sentences,
 * the second saying `max`, so that a screen shows each translated.
 */
const requiredText = (required: string, tooLong: string, max = 100) =>
  z.string({ required_error: required, invalid_type_error: required }).trim().min(1, required).max(max, tooLong);

/** POST /api/kiosks: the Kiosks tab's "Enrol This Device". */
export const enrolKioskSchema = z
  .object({
    name: requiredText(msg('Kiosk name is required'), msg('Kiosk name must be at most 100 characters')),
    location: requiredText(msg('Location is required'), msg('Location must be at most 100 characters')),
  })
  .strict();
export type EnrolKioskForm = z.input<typeof enrolKioskSchema>;

export const LOCATION_NAME_MAX = 100;
/** A location's name (spec section 5: trimmed, non-empty, also when edited). */
export const locationName = requiredText(
  msg('Location name is required'),
  msg('Location name must be at most 100 characters'),
  LOCATION_NAME_MAX,
);
/** The Locations tab's "Add Location" (POST /api/locations takes the same name). */
export const addLocationSchema = z.object({ name: locationName }).strict();
export type AddLocationForm = z.input<typeof addLocationSchema>;

const CURRENT_PASSWORD_REQUIRED = msg('Current password is required');
const NEW_PASSWORD_TOO_SHORT = msg('New password must be at least 6 characters');

/** POST /api/auth/change-password (spec section 5): the rules in the spec's order, on trimmed values. */
export const changePasswordSchema = z
  .object({
    currentPassword: z
      .string({ required_error: CURRENT_PASSWORD_REQUIRED, invalid_type_error: CURRENT_PASSWORD_REQUIRED })
      .trim()
      .min(1, CURRENT_PASSWORD_REQUIRED)
      .max(200, msg('Password is too long')),
    newPassword: z
      .string({ required_error: NEW_PASSWORD_TOO_SHORT, invalid_type_error: NEW_PASSWORD_TOO_SHORT })
      .trim()
      .min(6, NEW_PASSWORD_TOO_SHORT)
      .regex(/[A-Z]/, msg('Password must contain at least one uppercase letter'))
      .regex(/[0-9]/, msg('Password must contain at least one number'))
      .max(200, msg('Password is too long')),
  })
  .strict();

export const PASSWORD_CONFIRM_REQUIRED = msg('Please confirm your password');
export const PASSWORDS_DIFFER = msg("Passwords don't match");

/**
 * The Change Password form: the request's fields and their confirmation, which never leaves the
 * browser. The confirmation is checked even while another field is still wrong.
 */
export const changePasswordFormSchema = changePasswordSchema.extend({ confirmPassword: z.string().trim() }).superRefine((form, ctx) => {
  if (!form.confirmPassword) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['confirmPassword'], message: PASSWORD_CONFIRM_REQUIRED });
  else if (form.confirmPassword !== form.newPassword)
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['confirmPassword'], message: PASSWORDS_DIFFER });
});
export type ChangePasswordForm = z.input<typeof changePasswordFormSchema>;

export const CHECK_IN_INTERVALS = [30, 50, 60, 120, 240] as const;
export const DEFAULT_CHECK_IN_INTERVAL = 60;
const CHECK_IN_INTERVAL_MESSAGE = msg('Check-in interval must be 30, 50, 60, 120 or 240 minutes');
export const PHONE_TOO_SHORT = msg('Phone number is too short');
export const CONTACT_NUMBER_INVALID = msg('Please enter a valid phone number, e.g. +447700900123');

/** The spec's clients send ids and intervals as numbers or as numeric strings (a select's value). */
export const numericText = (v: unknown) => (typeof v === 'string' && /^\s*\d{1,10}\s*$/.test(v) ? Number(v) : v);

/**
 * A primary or secondary contact as typed: digits and separators, 10 to 30 characters. The gateway
 * also asks libphonenumber-js whether such a number can exist, and stores it in E.164.
 */
export const contactNumberText = z
  .string({ required_error: PHONE_TOO_SHORT, invalid_type_error: PHONE_TOO_SHORT })
  .trim()
  .min(10, PHONE_TOO_SHORT)
  .max(30, msg('Phone number is too long'))
  .regex(/^[+0-9\s().-]+$/, CONTACT_NUMBER_INVALID);

/** A second number, optional: absent, null or blank means none. */
export const optionalContactNumber = <T extends z.ZodTypeAny>(number: T) =>
  z
    .string({ invalid_type_error: PHONE_TOO_SHORT })
    .trim()
    .nullable()
    .optional()
    .transform((v) => v || null)
    .pipe(number.nullable());

/** How often check-ins are due, in minutes, when given (the worker's team may allow fewer: the gateway asks identity). */
export const checkInIntervalGiven = z.preprocess(
  numericText,
  z
    .number({ invalid_type_error: CHECK_IN_INTERVAL_MESSAGE })
    .refine((v) => (CHECK_IN_INTERVALS as readonly number[]).includes(v), CHECK_IN_INTERVAL_MESSAGE),
);

/** How often check-ins are due, in minutes; the default when absent. */
export const checkInInterval = checkInIntervalGiven.optional().transform((v) => v ?? DEFAULT_CHECK_IN_INTERVAL);

/** The profile's Emergency Contact Settings (PATCH /api/users/{id}/settings, POST /api/settings with the owner). */
export const contactSettingsSchema = z
  .object(
    { primaryContact: contactNumberText, secondaryContact: optionalContactNumber(contactNumberText), checkInInterval },
    { errorMap: unknownFieldErrors },
  )
  .strict();
export type ContactSettingsForm = z.input<typeof contactSettingsSchema>;

export const MEDICAL_INFO_MAX_LENGTH = 2000;
/** Free text responders see in an emergency; null or empty clears it. */
export const medicalInfoText = z
  .string({ invalid_type_error: msg('Medical information must be text') })
  .max(MEDICAL_INFO_MAX_LENGTH, msg('Medical information must be at most 2000 characters'));
/** The profile's Medical Information (PATCH /api/users/{id} with `{medicalInfo}`). */
export const medicalInfoSchema = z.object({ medicalInfo: medicalInfoText }, { errorMap: unknownFieldErrors }).strict();
export type MedicalInfoForm = z.input<typeof medicalInfoSchema>;

const AWAY_UNTIL = msg('until must be a date and time, e.g. 2026-12-01T09:00:00Z, or null to be back');
/** An instant with its offset, as an ISO string; null to be back now. */
const awayUntil = z
  .string({ required_error: AWAY_UNTIL, invalid_type_error: AWAY_UNTIL })
  .max(40, AWAY_UNTIL)
  .refine(
    (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)),
    AWAY_UNTIL,
  )
  .transform((v) => new Date(v).toISOString())
  .nullable();

/** `POST /api/users/{id}/away`: `{until}` away until then, `{until: null}` back now. */
export const awaySchema = z.object({ until: awayUntil }).strict();

export const AWAY_TIME_REQUIRED = msg('Choose a date and time');
/**
 * The profile's Away form: a local date and time as the browser's picker gives it, sent as the
 * instant the gateway takes.
 */
export const awayFormSchema = z
  .object({
    until: z
      .string({ required_error: AWAY_TIME_REQUIRED })
      .refine((v) => v !== '' && !Number.isNaN(new Date(v).getTime()), AWAY_TIME_REQUIRED)
      .transform((v) => new Date(v).toISOString())
      .pipe(awayUntil),
  })
  .strict();
export type AwayForm = z.input<typeof awayFormSchema>;

/**
 * How an alarm ended, the outcome a monitor records on resolving it: a genuine incident (with its
 * severity), a false alarm (with why), or a test. The alarm report breaks false alarms down by reason.
 */
export const ALARM_VERDICTS = ['genuine', 'false_alarm', 'test'] as const;
export type AlarmVerdict = (typeof ALARM_VERDICTS)[number];
export const INCIDENT_SEVERITIES = ['minor', 'serious', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
export const FALSE_ALARM_REASONS = ['forgot_check_in', 'no_signal', 'device', 'other'] as const;
export type FalseAlarmReason = (typeof FALSE_ALARM_REASONS)[number];
export const VERDICT_REQUIRED = msg('Choose whether the alarm was genuine, a false alarm or a test');
export const SEVERITY_REQUIRED = msg('Choose how serious the incident was');
export const REASON_REQUIRED = msg('Choose why the alarm was false');
export const RESOLVE_NOTE_REQUIRED = msg('Please write a note on how the alarm was resolved');

const resolveNote = z
  .string({ required_error: RESOLVE_NOTE_REQUIRED, invalid_type_error: RESOLVE_NOTE_REQUIRED })
  .trim()
  .min(1, RESOLVE_NOTE_REQUIRED)
  .max(2000, msg('The note must be at most 2000 characters'));

/** Resolved as genuine: an incident, with how serious it was. */
export const resolveGenuineSchema = z
  .object({
    verdict: z.literal('genuine'),
    severity: z.enum(INCIDENT_SEVERITIES, { errorMap: () => ({ message: SEVERITY_REQUIRED }) }),
    note: resolveNote,
  })
  .strict();
/** Resolved as a false alarm, with why it was false. */
export const resolveFalseAlarmSchema = z
  .object({
    verdict: z.literal('false_alarm'),
    reason: z.enum(FALSE_ALARM_REASONS, { errorMap: () => ({ message: REASON_REQUIRED }) }),
    note: resolveNote,
  })
  .strict();
/** Resolved as a test alarm: counted apart from genuine and false ones. */
export const resolveTestSchema = z.object({ verdict: z.literal('test'), note: resolveNote }).strict();

/**
 * `POST /api/alarms/{id}/resolve` and the monitor's Resolve Alarm dialog: an outcome and a note.
 * Each verdict takes its own detail and refuses the others' by name.
 */
export const resolveAlarmSchema = z.discriminatedUnion('verdict', [resolveGenuineSchema, resolveFalseAlarmSchema, resolveTestSchema], {
  errorMap: (issue, ctx) => (issue.code === 'invalid_union_discriminator' ? { message: VERDICT_REQUIRED } : { message: ctx.defaultError }),
});
export type ResolveAlarm = z.output<typeof resolveAlarmSchema>;

/**
 * The Resolve Alarm dialog: its fields hold a severity and a reason whatever verdict is chosen, so
 * it sends only the chosen verdict's detail, then checks with the gateway's schema.
 */
export const resolveAlarmFormSchema = z
  .object({
    // A radio group with nothing checked reads as null.
    verdict: z.enum([...ALARM_VERDICTS, '']).nullish(),
    severity: z.enum([...INCIDENT_SEVERITIES, '']).nullish(),
    reason: z.enum([...FALSE_ALARM_REASONS, '']).nullish(),
    note: z.string(),
  })
  .transform(({ verdict, severity, reason, note }, ctx) => {
    const chosen =
      verdict === 'genuine'
        ? { verdict, severity: blankAsAbsent(severity), note }
        : verdict === 'false_alarm'
          ? { verdict, reason: blankAsAbsent(reason), note }
          : { verdict: blankAsAbsent(verdict), note };
    const result = resolveAlarmSchema.safeParse(chosen);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.addIssue(issue);
    // Without a verdict the union cannot check the note: the dialog names every missing field at once.
    const noteResult = !verdict ? resolveNote.safeParse(note) : undefined;
    if (noteResult && !noteResult.success) for (const issue of noteResult.error.issues) ctx.addIssue({ ...issue, path: ['note'] });
    return z.NEVER;
  });
export type ResolveAlarmForm = z.input<typeof resolveAlarmFormSchema>;

export const ALARM_NOTE_REQUIRED = msg('Write the note');
/** POST /api/alarms/:id/notes: a line on the alarm's history from whoever handles it. */
export const alarmNoteSchema = z
  .object({
    text: z
      .string({ required_error: ALARM_NOTE_REQUIRED, invalid_type_error: ALARM_NOTE_REQUIRED })
      .trim()
      .min(1, ALARM_NOTE_REQUIRED)
      .max(2000, msg('The note must be at most 2000 characters')),
  })
  .strict();

export const ALARM_MESSAGE_REQUIRED = msg('Write the message');
export const ALARM_MESSAGE_MAX = 500;
/**
 * A message during an alarm, from the monitor (`POST /api/alarms/:id/messages`) or the worker
 * (`POST /api/profile/alarm-messages`): short, as it may go by SMS.
 */
export const alarmMessageSchema = z
  .object({
    text: z
      .string({ required_error: ALARM_MESSAGE_REQUIRED, invalid_type_error: ALARM_MESSAGE_REQUIRED })
      .trim()
      .min(1, ALARM_MESSAGE_REQUIRED)
      .max(ALARM_MESSAGE_MAX, msg('The message must be at most 500 characters')),
  })
  .strict();
export type AlarmMessageForm = z.input<typeof alarmMessageSchema>;

/** The superadmin's test voice call (the spec's emergency-call body with phoneNumber). */
export const testCallSchema = z
  .object({
    phoneNumber: internationalPhone,
    workerName: z
      .string({ invalid_type_error: msg('workerName must be text') })
      .trim()
      .max(100, msg('workerName is too long'))
      .optional(),
    location: z
      .string({ invalid_type_error: msg('location must be text') })
      .trim()
      .max(100, msg('location is too long'))
      .optional(),
  })
  .strict();
/** The System Testing form: a UK number may be typed as dialled at home (07...), as on the profile. */
export const testCallFormSchema = testCallSchema.extend({ phoneNumber: z.string().transform(normaliseUkPhone).pipe(internationalPhone) });
export type TestCallForm = z.input<typeof testCallFormSchema>;

export const MESSAGE_TEXT_REQUIRED = msg('Please enter the message text');
/** A text to LWS's number through the test provider, as a worker's phone would send it. */
export const inboundSmsSchema = z
  .object({
    from: internationalPhone,
    body: z
      .string({ required_error: MESSAGE_TEXT_REQUIRED, invalid_type_error: MESSAGE_TEXT_REQUIRED })
      .trim()
      .min(1, MESSAGE_TEXT_REQUIRED)
      .max(1600, msg('The message is too long')),
  })
  .strict();
export type InboundSmsForm = z.input<typeof inboundSmsSchema>;

/** Four digits, the only shape a PIN has. */
export const pinDigits = z.string({ required_error: PIN_FORMAT, invalid_type_error: PIN_FORMAT }).regex(/^\d{4}$/, PIN_FORMAT);

/** POST /api/users/{id}/verify-pin: the Change PIN wizard's first step. */
export const verifyPinSchema = z.object({ pin: pinDigits }).strict();

/** The PIN branch of PATCH /api/users/{id}; currentPin is required by identity when a PIN is set. */
export const changePinSchema = z
  .object({ currentPin: pinDigits.optional(), pinCode: pinDigits })
  .strict(msg('Only currentPin and pinCode may be sent with a PIN change'));

export const DURESS_SAME_AS_PIN = msg('Your duress PIN must be different from your PIN');
/**
 * PUT /api/users/{id}/duress-pin and the profile's Duress PIN form; duressPin null removes
 * it. One the same as the PIN typed beside it is refused before anything is sent (identity also
 * refuses one equal to the stored PIN).
 */
export const duressPinSchema = z
  .object({ currentPin: pinDigits, duressPin: pinDigits.nullable() })
  .strict(msg('Only currentPin and duressPin may be sent'))
  .refine((b) => b.duressPin !== b.currentPin, { message: DURESS_SAME_AS_PIN, path: ['duressPin'] });
export type DuressPinForm = z.input<typeof duressPinSchema>;
