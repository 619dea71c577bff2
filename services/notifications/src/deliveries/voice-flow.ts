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
