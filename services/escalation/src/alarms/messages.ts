import { msg, translate } from '@lws/i18n';

/**
 * The words people receive. Times are shown in Europe/London, as everywhere in LWS. What the worker
 * and their contacts receive is in the worker's language (`language`: null, English); what
 * monitors and emergency lines receive is in English.
 */
const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export const londonTime = (d: Date) => clock.format(d);

export const workerLabel = (name: string | null | undefined, userId: number) => name?.trim() || `Worker #${userId}`;

const where = (location: string | null | undefined) => (location ? ` at ${location}` : '');

/** `replyable`: a text message, which the worker may answer with their PIN to check in. */
export function reminderText(minutes: number, due: Date, replyable = false, language: string | null = null): string {
  const values = { minutes, time: londonTime(due) };
  return replyable
    ? translate(
        language,
        msg(
          'LWS reminder: your check-in is due in {{minutes}} minutes (by {{time}}). Open LWS and check in, or reply to this message with your PIN.',
        ),
        values,
      )
    : translate(language, msg('LWS reminder: your check-in is due in {{minutes}} minutes (by {{time}}). Open LWS and check in.'), values);
}

/** What the keypad reminder call says before it asks for the PIN, in the worker's language. */
export function voiceReminderText(due: Date, language: string | null = null): string {
  return translate(language, msg('Your check-in is due in 2 minutes, by {{time}}.'), { time: londonTime(due) });
}

export interface AlarmFacts {
  kind: 'missed_check_in' | 'emergency';
  userId: number;
  workerName: string | null;
  location: string | null;
  openedAt: Date;
  dueAt: Date | null;
  /** Raised by the worker's duress PIN. */
  duress?: boolean;
}

export function workerAlarmText(a: AlarmFacts, language: string | null = null): string {
  if (a.kind === 'emergency')
    return translate(language, msg('LWS: your emergency alert was received at {{time}}. Your monitors are being alerted.'), {
      time: londonTime(a.openedAt),
    });
  return translate(
    language,
    msg('LWS: you missed your check-in due at {{time}}. Check in now if you are safe; your monitors have been alerted.'),
    {
      time: londonTime(a.dueAt ?? a.openedAt),
    },
  );
}

/** The title of the worker's own push about their alarm. */
export function workerAlarmTitle(a: AlarmFacts, language: string | null = null): string {
  return translate(language, a.kind === 'emergency' ? msg('Emergency alert received') : msg('Missed check-in'));
}

export function monitorsAlarmTitle(a: AlarmFacts): string {
  const name = workerLabel(a.workerName, a.userId);
  if (a.duress) return `DURESS: ${name}`;
  return a.kind === 'emergency' ? `EMERGENCY: ${name}` : `Missed check-in: ${name}`;
}

export function monitorsAlarmText(a: AlarmFacts): string {
  const name = workerLabel(a.workerName, a.userId);
  if (a.duress)
    return `DURESS: ${name} entered their duress PIN${where(a.location)} at ${londonTime(a.openedAt)} and may be under threat. Do not call them. Acknowledge the alarm in LWS.`;
  if (a.kind === 'emergency')
    return `${name} requested emergency assistance${where(a.location)} at ${londonTime(a.openedAt)}. Acknowledge the alarm in LWS.`;
  return `${name} did not check in by ${londonTime(a.dueAt ?? a.openedAt)}${where(a.location)}. Acknowledge the alarm in LWS.`;
}

export function stillOpenText(a: AlarmFacts): string {
  return `Nobody has acknowledged the alarm for ${workerLabel(a.workerName, a.userId)} (opened ${londonTime(a.openedAt)}). Acknowledge it in LWS.`;
}

/** A contact's message is in the worker's language: the people close to them read it. */
export function contactText(a: AlarmFacts, language: string | null = null): string {
  const name = workerLabel(a.workerName, a.userId);
  const time = londonTime(a.kind === 'emergency' || a.duress ? a.openedAt : (a.dueAt ?? a.openedAt));
  const values = { name, time, location: a.location ?? '' };
  if (a.duress) {
    return a.location
      ? translate(
          language,
          msg(
            'LWS EMERGENCY: {{name}} signalled that they are under threat at {{location}} at {{time}}. Do not call them. If you know where they are, call 999.',
          ),
          values,
        )
      : translate(
          language,
          msg(
            'LWS EMERGENCY: {{name}} signalled that they are under threat at {{time}}. Do not call them. If you know where they are, call 999.',
          ),
          values,
        );
  }
  if (a.kind === 'emergency') {
    return a.location
      ? translate(
          language,
          msg(
            'LWS EMERGENCY: {{name}} requested emergency assistance at {{location}} at {{time}}. Please try to reach them; if you cannot, call 999.',
          ),
          values,
        )
      : translate(
          language,
          msg('LWS EMERGENCY: {{name}} requested emergency assistance at {{time}}. Please try to reach them; if you cannot, call 999.'),
          values,
        );
  }
  return a.location
    ? translate(
        language,
        msg(
          'LWS alert: {{name}} missed a safety check-in due at {{time}} at {{location}}. Please try to reach them; if you cannot, call 999.',
        ),
        values,
      )
    : translate(
        language,
        msg('LWS alert: {{name}} missed a safety check-in due at {{time}}. Please try to reach them; if you cannot, call 999.'),
        values,
      );
}

/**
 * What a call about the alarm says before "press 1": to an emergency line in English, to the
 * worker's primary contact in the worker's language.
 */
export function callText(a: AlarmFacts, language: string | null = null): string {
  const values = { name: workerLabel(a.workerName, a.userId), location: a.location ?? '' };
  const text = a.duress
    ? a.location
      ? msg(
          'This is the LWS lone worker safety system. {{name}} signalled that they are under threat at {{location}}. Press 1 to accept this alert.',
        )
      : msg('This is the LWS lone worker safety system. {{name}} signalled that they are under threat. Press 1 to accept this alert.')
    : a.kind === 'emergency'
      ? a.location
        ? msg(
            'This is the LWS lone worker safety system. {{name}} requested emergency assistance at {{location}}. Press 1 to accept this alert.',
          )
        : msg('This is the LWS lone worker safety system. {{name}} requested emergency assistance. Press 1 to accept this alert.')
      : a.location
        ? msg('This is the LWS lone worker safety system. {{name}} missed a safety check-in at {{location}}. Press 1 to accept this alert.')
        : msg('This is the LWS lone worker safety system. {{name}} missed a safety check-in. Press 1 to accept this alert.');
  return translate(language, text, values);
}

/**
 * A line of the worker's own emergency screen: an English text their screen translates, and the
 * person it names, filled in there ({{name}}), so the line reads in the worker's language.
 */
export type WorkerLine = string | { text: string; name: string };

/** The worker's own emergency screen: what has happened, in their words. */
export const WORKER_TEXT = {
  requested: msg('Help requested'),
  monitorsAlerted: msg('Your monitors have been alerted'),
  contactsMessaged: msg('Your emergency contacts have been sent a message'),
  callingContact: (name?: string): WorkerLine =>
    name ? { text: msg('Calling your emergency contact, {{name}}'), name } : msg('Calling your emergency contact'),
  callingLine: msg('Calling the emergency response line'),
  lineAccepted: msg('The emergency response line has taken your alert'),
  dealing: (name: string | null): WorkerLine =>
    name ? { text: msg('{{name}} is dealing with it'), name } : msg('A monitor is dealing with it'),
  safe: msg("You said you're safe. A monitor will confirm and close this."),
  pressedAgain: msg('You asked for help again: the same alert, still being dealt with'),
} as const;
