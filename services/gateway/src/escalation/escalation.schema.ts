import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import { parseInput } from '../common/validation';

const LIMIT = 'limit must be a whole number from 1 to 500';
const OPEN = "open must be 'true' or 'false'";
const MINUTES = 'minutesUntilDue must be a number of minutes from 0 to 1440';

export const DEFAULT_ALARM_LIMIT = 50;
export const INVALID_ALARM_ID = 'Invalid alarm ID';

/** `GET /api/alarms`: open alarms unless `open=false` asks for every alarm. */
export const alarmListQuery = z.object({
  open: z
    .enum(['true', 'false'], { errorMap: () => ({ message: OPEN }) })
    .optional()
    .transform((v) => v !== 'false'),
  limit: z
    .string({ invalid_type_error: LIMIT })
    .regex(/^\d{1,4}$/, LIMIT)
    .transform(Number)
    .pipe(z.number().min(1, LIMIT).max(500, LIMIT))
    .optional(),
  cursor: z.string({ invalid_type_error: 'Invalid cursor' }).min(1, 'Invalid cursor').max(200, 'Invalid cursor').optional(),
});

/** The monitor's Resolve Alarm dialog checks with the same schema. */
export {
  alarmMessageSchema,
  alarmNoteSchema,
  resolveAlarmSchema,
  resolveFalseAlarmSchema,
  resolveGenuineSchema,
  resolveTestSchema,
} from '@lws/schemas';

/** `{minutesUntilDue}` (the spec's `minutes_until_due` too); a numeric string from a form counts. */
export const simulateTimeSchema = z
  .object({
    minutesUntilDue: z.preprocess(
      (v) => (typeof v === 'string' && /^\d{1,4}(\.\d+)?$/.test(v.trim()) ? Number(v) : v),
      z.number({ required_error: MINUTES, invalid_type_error: MINUTES }).finite(MINUTES).min(0, MINUTES).max(1440, MINUTES),
    ),
  })
  .strict();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Alarm ids are uuids; anything else is a 400 naming the parameter, before any service is asked. */
export class AlarmIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw new BadRequestException({ message: INVALID_ALARM_ID, field: 'id' });
    return value.toLowerCase();
  }
}

const ANSWER_WITHIN = 'answerWithinMinutes must be a whole number of minutes from 2 to 60';
const ASK_WHOM = 'Ask one worker (userId) or a team (teamId)';
export const DEFAULT_ANSWER_WITHIN_MINUTES = 5;
const answerWithin = z
  .number({ invalid_type_error: ANSWER_WITHIN })
  .int(ANSWER_WITHIN)
  .min(2, ANSWER_WITHIN)
  .max(60, ANSWER_WITHIN)
  .optional();
const positiveId = (field: string) =>
  z
    .number({ required_error: ASK_WHOM, invalid_type_error: `${field} must be a positive whole number` })
    .int(`${field} must be a positive whole number`)
    .positive(`${field} must be a positive whole number`);

/** `POST /api/check-in-requests` for one worker. */
export const checkInRequestWorkerSchema = z.object({ userId: positiveId('userId'), answerWithinMinutes: answerWithin }).strict();
/** `POST /api/check-in-requests` for every worker of a team on shift. */
export const checkInRequestTeamSchema = z.object({ teamId: positiveId('teamId'), answerWithinMinutes: answerWithin }).strict();

/** One worker or one team, never both (the 400 names the field). */
export function parseCheckInRequest(body: unknown): { userId?: number; teamId?: number; answerWithinMinutes: number } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (b && typeof b === 'object' && 'userId' in b && 'teamId' in b) throw new BadRequestException({ message: ASK_WHOM, field: 'teamId' });
  const schema = b && typeof b === 'object' && 'teamId' in b ? checkInRequestTeamSchema : checkInRequestWorkerSchema;
  const parsed = parseInput(schema, body) as { userId?: number; teamId?: number; answerWithinMinutes?: number };
  return { ...parsed, answerWithinMinutes: parsed.answerWithinMinutes ?? DEFAULT_ANSWER_WITHIN_MINUTES };
}
