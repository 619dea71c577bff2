import twilio from 'twilio';
import { msg, translate, voiceOf } from '@lws/i18n';

/** How long the callee has to press a key once the message has played. */
export const GATHER_TIMEOUT_SECONDS = 60;

type Say = Parameters<twilio.twiml.VoiceResponse['say']>[0];

/**
 * A call speaks the language its text was written in (`language`: none, English): the fixed
 * prompts are translated, and <Say> takes that language's voice, so a Welsh text is never read
 * out by an English voice.
 */
function speaker(language: string | null | undefined) {
  const spoken = voiceOf(language);
  const attributes: Say = spoken ? { language: spoken.language as Say['language'], voice: spoken.voice as Say['voice'] } : {};
  return {
    say: (to: { say(attributes: Say, text: string): unknown }, text: string, values: Record<string, string | number> = {}) =>
      to.say(attributes, translate(language, text, values)),
  };
}

/** The alert, then "press 1 to accept"; no key within the timeout falls through to the goodbye. */
export function alertTwiml(message: string, gatherUrl: string, language?: string | null): string {
  const { say } = speaker(language);
  const r = new twilio.twiml.VoiceResponse();
  const gather = r.gather({ numDigits: 1, timeout: GATHER_TIMEOUT_SECONDS, action: gatherUrl, method: 'POST', actionOnEmptyResult: false });
  say(gather, msg('This is an L W S safety alert. {{message}}'), { message });
  say(gather, msg('Press 1 to accept responsibility for this alert.'));
  say(r, msg('No key was pressed. The alert was not accepted. Goodbye.'));
  r.hangup();
  return r.toString();
}

/** Keyed PIN tries a reminder call allows before it asks the worker to use the app. */
export const PIN_TRIES = 3;
/** Seconds to key the PIN once asked. */
export const PIN_GATHER_TIMEOUT_SECONDS = 20;

/**
 * A check-in reminder call, which a worker without data can answer: the reminder, then the PIN on
 * the keypad; `again` when the last try was wrong. No key within the timeout falls through to
 * "use the app".
 */
export function pinReminderTwiml(message: string, gatherUrl: string, again = false, language?: string | null): string {
  const { say } = speaker(language);
  const r = new twilio.twiml.VoiceResponse();
  const gather = r.gather({
    numDigits: 4,
    timeout: PIN_GATHER_TIMEOUT_SECONDS,
    action: gatherUrl,
    method: 'POST',
    actionOnEmptyResult: false,
  });
  if (again) say(gather, msg('That PIN is not right. Enter your 4 digit PIN again.'));
  else say(gather, msg('This is an L W S check-in reminder. {{message}} To check in, enter your 4 digit PIN now.'), { message });
  say(r, msg('No PIN was entered. Please check in with the L W S app. Goodbye.'));
  r.hangup();
  return r.toString();
}

/** What a keypad check-in can come to, as the worker hears it. */
export const PIN_OUTCOMES = {
  tooShort: msg('A PIN has 4 digits. Please check in with the L W S app. Goodbye.'),
  checkedIn: msg('Thank you. You are checked in. Your next check-in is due by {{due}}. Goodbye.'),
  wrongPin: msg('That PIN is not right. Please check in with the L W S app. Goodbye.'),
  locked: msg('Too many wrong PINs. Please check in with the L W S app, or call your monitor. Goodbye.'),
  notOnShift: msg('You are not on shift. Goodbye.'),
  failed: msg('Your check-in could not be recorded. Please check in with the L W S app. Goodbye.'),
} as const;

/** What the worker hears once the keyed PIN has been dealt with. */
export function pinOutcomeTwiml(text: string, language?: string | null, values: Record<string, string> = {}): string {
  return spoken(text, language, values);
}

export function acceptedTwiml(language?: string | null): string {
  return spoken(msg('Thank you. You have accepted this alert. Please act on it now. Goodbye.'), language);
}

export function notAcceptedTwiml(language?: string | null): string {
  return spoken(msg('The alert was not accepted. Goodbye.'), language);
}

export function goneTwiml(language?: string | null): string {
  return spoken(msg('This alert is no longer available. Goodbye.'), language);
}

/** One text said, then the call ends. */
function spoken(text: string, language: string | null | undefined, values: Record<string, string> = {}): string {
  const r = new twilio.twiml.VoiceResponse();
  speaker(language).say(r, text, values);
  r.hangup();
  return r.toString();
}

const TERMINAL = new Set(['completed', 'no-answer', 'busy', 'failed', 'canceled']);

export function isTerminalCallStatus(status: string): boolean {
  return TERMINAL.has(status);
}

/** Accepted only when the callee pressed 1; any other end is not an answer. */
export function callOutcome(status: string, accepted: boolean): 'accepted' | 'not_accepted' | 'no_answer' | 'busy' | 'failed' | 'canceled' {
  if (accepted) return 'accepted';
  switch (status) {
    case 'no-answer':
      return 'no_answer';
    case 'busy':
      return 'busy';
    case 'canceled':
      return 'canceled';
    case 'failed':
      return 'failed';
    default:
      return 'not_accepted';
  }
}
