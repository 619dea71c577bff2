import { Inject, Injectable } from '@nestjs/common';
import twilio from 'twilio';
import { msg, translate } from '@lws/i18n';
import { DB, LOGGER, type Db, type Logger } from '@lws/platform';
import { UsersProjection } from '../users/users.projection';
import { PinCheckIn } from './pin-check-in';

const E164 = /^\+[1-9][0-9]{6,14}$/;
/** The PIN in a reply: the first four digits standing alone ("1234", "PIN 1234", "1234 safe"). */
const PIN_IN_TEXT = /(?:^|\D)(\d{4})(?:\D|$)/;
/** A Twilio message SID: one texted check-in per message, however often Twilio delivers it. */
const MESSAGE_SID = /^(SM|MM)[0-9a-fA-F]{32}$/;

/**
 * What LWS texts back, in the language of the worker whose phone it is. None of it says whether a
 * number belongs to anyone.
 */
export const SMS_REPLIES = {
  checkedIn: msg('LWS: checked in at {{at}}. Your next check-in is due by {{due}}.'),
  noPin: msg('LWS: to check in, reply with your 4-digit PIN.'),
  wrongPin: msg('LWS: that PIN is not right. Reply with your 4-digit PIN to check in.'),
  locked: msg('LWS: too many wrong PINs. PIN check-ins are locked for 15 minutes. Open LWS or call your monitor.'),
  notOnShift: msg('LWS: you are not on shift, so there is nothing to check in.'),
  sharedNumber: msg(
    'LWS: this number belongs to more than one worker, so a texted PIN cannot check you in. Please check in in the LWS app, and ask your monitor to give each worker their own number.',
  ),
  failed: msg('LWS: your check-in could not be recorded just now. Please try again, or open LWS.'),
} as const;

/**
 * A worker without data checks in by replying to a reminder with their PIN from their own phone.
 * The answer is texted back (TwiML); a number no worker has gets none.
 */
@Injectable()
export class SmsCheckIn {
  constructor(
    private readonly pins: PinCheckIn,
    private readonly users: UsersProjection,
    @Inject(DB) private readonly db: Db,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The TwiML to answer Twilio with: the reply to text back, or none. */
  async handle(params: Record<string, string>): Promise<string> {
    const from = params.From ?? '';
    const pin = PIN_IN_TEXT.exec(params.Body ?? '')?.[1];
    if (!E164.test(from)) return reply();
    const say = await this.speaker(from);
    if (!pin) return reply(say(SMS_REPLIES.noPin));
    const sid = params.MessageSid ?? '';
    const outcome = await this.pins.byPhone(from, pin, MESSAGE_SID.test(sid) ? `sms:${sid}` : `sms:${from}:${Date.now()}`);
    switch (outcome.kind) {
      case 'checked_in':
        return reply(say(SMS_REPLIES.checkedIn, { at: outcome.at, due: outcome.due }));
      case 'wrong_pin':
        return reply(say(SMS_REPLIES.wrongPin));
      case 'locked':
        return reply(say(SMS_REPLIES.locked));
      case 'not_on_shift':
        return reply(say(SMS_REPLIES.notOnShift));
      case 'shared_number':
        // Only the number's own phone reads the answer, and it belongs to one of these workers.
        this.logger.warn({ sid }, 'texted PIN from a number several workers share; told to check in in the app');
        return reply(say(SMS_REPLIES.sharedNumber));
      case 'unknown_sender':
        // Texting back would tell a stranger the number is known.
        this.logger.warn({ sid }, 'texted PIN from a number that names no worker; not answered');
        return reply();
      case 'failed':
        return reply(say(SMS_REPLIES.failed));
    }
  }

  /** Writes a reply in the phone's worker's language; English when that cannot be read now. */
  private async speaker(phone: string) {
    let language: string | null = null;
    try {
      language = await this.users.languageOfPhone(this.db, phone);
    } catch (err) {
      // The check-in matters more than the reply's language: it goes on, answered in English.
      this.logger.warn({ err }, 'the language of a texting phone could not be read; answering in English');
    }
    return (text: string, values: Record<string, string> = {}) => translate(language, text, values);
  }
}

function reply(text?: string): string {
  const r = new twilio.twiml.MessagingResponse();
  if (text) r.message(text);
  return r.toString();
}
