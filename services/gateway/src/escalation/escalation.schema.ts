import { BadRequestException, type PipeTransform } from '@nestjs/common';
import { z } from 'zod';

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
