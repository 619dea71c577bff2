import type { TranslatableText } from '@lws/contracts';
import { msg, translate } from '@lws/i18n';

/**
 * The words people receive. Times are shown in Europe/London, as everywhere in LWS. What the worker
 * and their contacts receive is in the worker's language (`language`: null, English). A push to
 * monitors is one request for several people who may speak different languages, so it carries its
 * texts untranslated (TranslatableText) and notifications writes each monitor's in their own. What
 * the emergency lines hear is in English.
 */
const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export const londonTime = (d: Date) => clock.format(d);

export const workerLabel = (name: string | null | undefined, userId: number) => name?.trim() || `Worker #${userId}`;

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

/** The English rendering of a text meant for several readers (the request's `title`/`body`). */
export const english = (t: TranslatableText): string => translate(null, t.text, t.values);

/**
 * The monitors' push about an alarm, as texts to translate for each monitor. Where the alarm is
 * has a template of its own, with and without a location, so each language orders its words.
 */
export function monitorsAlarm(a: AlarmFacts): { title: TranslatableText; body: TranslatableText } {
  const name = workerLabel(a.workerName, a.userId);
  const at = { name, time: londonTime(a.openedAt) };
  const located: Record<string, string> = a.location ? { location: a.location } : {};
  if (a.duress)
    return {
      title: { text: msg('DURESS: {{name}}'), values: { name } },
      body: {
        text: a.location
          ? msg(
              'DURESS: {{name}} entered their duress PIN at {{location}} at {{time}} and may be under threat. Do not call them. Acknowledge the alarm in LWS.',
            )
          : msg(
              'DURESS: {{name}} entered their duress PIN at {{time}} and may be under threat. Do not call them. Acknowledge the alarm in LWS.',
            ),
        values: { ...at, ...located },
      },
    };
  if (a.kind === 'emergency')
    return {
      title: { text: msg('EMERGENCY: {{name}}'), values: { name } },
      body: {
        text: a.location
          ? msg('{{name}} requested emergency assistance at {{location}} at {{time}}. Acknowledge the alarm in LWS.')
          : msg('{{name}} requested emergency assistance at {{time}}. Acknowledge the alarm in LWS.'),
        values: { ...at, ...located },
      },
    };
  return {
    title: { text: msg('Missed check-in: {{name}}'), values: { name } },
    body: {
      text: a.location
        ? msg('{{name}} did not check in by {{time}} at {{location}}. Acknowledge the alarm in LWS.')
        : msg('{{name}} did not check in by {{time}}. Acknowledge the alarm in LWS.'),
      values: { name, time: londonTime(a.dueAt ?? a.openedAt), ...located },
    },
  };
}

/** The body of the monitors' reminder that an alarm is still open (its title is monitorsAlarm's). */
export function stillOpen(a: AlarmFacts): TranslatableText {
  return {
    text: msg('Nobody has acknowledged the alarm for {{name}} (opened {{time}}). Acknowledge it in LWS.'),
    values: { name: workerLabel(a.workerName, a.userId), time: londonTime(a.openedAt) },
  };
}

/** The team's monitors, when a worker on shift is deactivated or deleted (by an admin or the directory). */
export function closedOnShift(
  how: 'deactivated' | 'deleted',
  name: string | null,
  userId: number,
): { title: TranslatableText; body: TranslatableText } {
  const values = { name: workerLabel(name, userId) };
  return how === 'deactivated'
    ? {
        title: { text: msg('Worker deactivated during a shift'), values: {} },
        body: {
          text: msg(
            '{{name}} was deactivated while on shift, so their shift has ended and LWS no longer expects check-ins. Make sure they are safe.',
          ),
          values,
        },
      }
    : {
        title: { text: msg('Worker deleted during a shift'), values: {} },
        body: {
          text: msg(
            '{{name}} was deleted while on shift, so their shift has ended and LWS no longer expects check-ins. Make sure they are safe.',
          ),
          values,
        },
      };
}

/** In English: the title of an alarm call (the provider's log). */
export const monitorsAlarmTitle = (a: AlarmFacts): string => english(monitorsAlarm(a).title);

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

const dayAndTime = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A stretch with nobody on call, London time: "Sat 12 Dec, 08:00 to Sat 12 Dec, 20:00". */
export const gapText = (g: { start: Date; end: Date }) => `${dayAndTime.format(g.start)} to ${dayAndTime.format(g.end)}`;

/** The daily notice to a team's monitors and the superadmin: the next 48 hours' stretches with nobody on call. */
export function onCallGapsNotice(
  team: string,
  gaps: readonly { start: Date; end: Date }[],
): { title: TranslatableText; body: TranslatableText } {
  return {
    title: { text: msg('No on-call cover: {{team}}'), values: { team } },
    body: {
      text: msg('Nobody is on call for {{team}} in the next 48 hours: {{gaps}}. Add cover in Super Admin, Teams.'),
      values: { team, gaps: gaps.map(gapText).join('; ') },
    },
  };
}

const SEVERITY_WORDS = { minor: 'minor', serious: 'serious', critical: 'critical' } as const;
const REASON_WORDS = {
  forgot_check_in: 'forgot to check in',
  no_signal: 'no signal',
  device: 'device problem',
  other: 'other reason',
} as const;

/** An alarm's outcome as its history line reads it: "genuine, serious incident", "false alarm: no signal", "test". */
export function outcomeText(o: {
  verdict: 'genuine' | 'false_alarm' | 'test';
  severity?: keyof typeof SEVERITY_WORDS | null;
  reason?: keyof typeof REASON_WORDS | null;
}): string {
  if (o.verdict === 'test') return 'test';
  if (o.verdict === 'genuine') return o.severity ? `genuine, ${SEVERITY_WORDS[o.severity]} incident` : 'genuine';
  return o.reason ? `false alarm: ${REASON_WORDS[o.reason]}` : 'false alarm';
}
