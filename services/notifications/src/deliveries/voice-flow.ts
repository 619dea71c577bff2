import twilio from 'twilio';

/** How long the callee has to press a key once the message has played. */
export const GATHER_TIMEOUT_SECONDS = 60;

/** The alert, then "press 1 to accept"; no key within the timeout falls through to the goodbye. */
export function alertTwiml(message: string, gatherUrl: string): string {
  const r = new twilio.twiml.VoiceResponse();
  const gather = r.gather({ numDigits: 1, timeout: GATHER_TIMEOUT_SECONDS, action: gatherUrl, method: 'POST', actionOnEmptyResult: false });
  gather.say(`This is an L W S safety alert. ${message}`);
  gather.say('Press 1 to accept responsibility for this alert.');
  r.say('No key was pressed. The alert was not accepted. Goodbye.');
  r.hangup();
  return r.toString();
}

/** Keyed PIN tries a reminder call allows before it asks the worker to use the app. */
export const PIN_TRIES = 3;
/** Seconds to key the PIN once asked. */
export const PIN_GATHER_TIMEOUT_SECONDS = 20;

/**
 * A check-in reminder call (issue 13): the reminder, then the PIN on the keypad; `again` when the
 * last try was wrong. No key within the timeout falls through to "use the app".
 */
export function pinReminderTwiml(message: string, gatherUrl: string, again = false): string {
  const r = new twilio.twiml.VoiceResponse();
  const gather = r.gather({ numDigits: 4, timeout: PIN_GATHER_TIMEOUT_SECONDS, action: gatherUrl, method: 'POST', actionOnEmptyResult: false });
  gather.say(again ? 'That PIN is not right. Enter your 4 digit PIN again.' : `This is an L W S check-in reminder. ${message} To check in, enter your 4 digit PIN now.`);
  r.say('No PIN was entered. Please check in with the L W S app. Goodbye.');
  r.hangup();
  return r.toString();
}

/** What the worker hears once the keyed PIN has been dealt with. */
export function pinOutcomeTwiml(text: string): string {
  const r = new twilio.twiml.VoiceResponse();
  r.say(text);
  r.hangup();
  return r.toString();
}

export function acceptedTwiml(): string {
  const r = new twilio.twiml.VoiceResponse();
  r.say('Thank you. You have accepted this alert. Please act on it now. Goodbye.');
  r.hangup();
  return r.toString();
}

export function notAcceptedTwiml(): string {
  const r = new twilio.twiml.VoiceResponse();
  r.say('The alert was not accepted. Goodbye.');
  r.hangup();
  return r.toString();
}

export function goneTwiml(): string {
  const r = new twilio.twiml.VoiceResponse();
  r.say('This alert is no longer available. Goodbye.');
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
