import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { z } from 'zod';

/**
 * A number escalation will text or call (a contact's, a team's emergency number), as the screens'
 * schemas passed it: libphonenumber-js must find it possible (a national number is read as UK), and
 * it is stored in E.164. Possible rather than "valid", as it is dialled: a range the library's
 * metadata does not know yet is still worth calling. Anything else is `message`.
 */
export const possibleE164 = (message: string) => (number: string, ctx: z.RefinementCtx) => {
  const parsed = parsePhoneNumberFromString(number.replace(/[\s().-]/g, ''), 'GB');
  if (!parsed?.isPossible()) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message });
    return z.NEVER;
  }
  return parsed.number;
};
