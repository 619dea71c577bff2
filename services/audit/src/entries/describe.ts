import type { EventMap } from '@lws/contracts';
import type { EnvelopeOf } from '@lws/messaging';
import { fallbackUsername, type EntryType } from './entry-types';

/** The events that become activity entries (identity's user events feed the projection instead). */
export const DESCRIBED_SUBJECTS = [
  'shifts.shift.started.v1',
  'shifts.shift.ended.v1',
  'shifts.checkin.recorded.v1',
  'shifts.emergency.raised.v1',
  'shifts.deadline.changed.v1',
  'shifts.visit.started.v1',
  'shifts.visit.ended.v1',
  'shifts.visit.note_revealed.v1',
  'escalation.alarm.opened.v1',
  'escalation.alarm.acknowledged.v1',
  'escalation.alarm.resolved.v1',
  'escalation.alarm.escalated.v1',
  'escalation.alarm.late_check_in.v1',
  'escalation.alarm.worker_safe.v1',
  'escalation.alarm.pressed_again.v1',
  'escalation.alarm.note_added.v1',
  'escalation.checkin_request.created.v1',
  'escalation.checkin_request.closed.v1',
  'escalation.system_alert.raised.v1',
  'notifications.message.sent.v1',
  'notifications.call.completed.v1',
  'identity.pin.locked.v1',
  'identity.user.deactivated.v1',
  'identity.user.reactivated.v1',
  'identity.api_token.created.v1',
  'identity.api_token.revoked.v1',
  // Only a change by the organisation's directory (SCIM) is an entry: people's own are on screen.
  'identity.user.created.v1',
  'identity.user.updated.v1',
  'identity.team.changed.v1',
] as const;

export type DescribedSubject = (typeof DESCRIBED_SUBJECTS)[number];
export type DescribedEvent = EnvelopeOf<DescribedSubject>;

/** Which of a message's provider updates the log has already shown. */
export type MessageStage = 'first' | 'failure';

export interface EntryDraft {
  /** Null for a system-level entry. */
  userId: number | null;
  /** Set when the event itself names the user; otherwise audit's projection supplies it. */
  username?: string;
  type: EntryType;
  details: string;
  location?: string;
  at: Date;
  /** The message stages this entry shows: recorded with it, so no later update repeats them. */
  marks?: { messageId: string; stages: MessageStage[] };
  /** Anything of a duress alarm: monitors read it, the worker's own log never shows it. */
  monitorsOnly?: boolean;
}

/** A duress entry is for monitors alone; every other entry leaves the field out. */
const duressOnly = (duress: boolean | undefined): { monitorsOnly?: true } => (duress ? { monitorsOnly: true } : {});

export interface Lookup {
  usernameOf(userId: number): Promise<string | undefined>;
  loggedStages(messageId: string): Promise<ReadonlySet<MessageStage>>;
}

/** A resolution note is the monitor's free text; the log shows its start, the alarm keeps all of it. */
export const NOTE_MAX = 300;

const clock = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** Times in entry texts are shown as the screens show them: Europe/London, 24-hour. */
export function londonTime(iso: string): string {
  return clock.format(new Date(iso));
}

const at = (place: string | undefined) => (place ? ` at ${place}` : '');

const CHANNELS: Record<EventMap['notifications.message.sent.v1']['channel'], string> = {
  sms: 'SMS',
  whatsapp: 'WhatsApp message',
  voice: 'Call',
  push: 'Push notification',
  webhook: 'Hand-off to the receiving centre',
};

const PURPOSES: Record<string, string> = {
  reminder_5min: '5-minute check-in reminder',
  reminder_2min: '2-minute check-in reminder',
  missed_check_in: 'missed check-in alert',
  emergency: 'emergency alert',
  alarm_call: 'alarm call',
  contact_message: 'message to an emergency contact',
  account_notice: 'notice to monitors',
  on_call_gaps: 'notice of gaps in the on-call rota',
  checkin_request: 'request to check in now',
  test: 'test message',
};

/** Provider statuses (Twilio's, and the fake provider's) that mean the message did not get through. */
const FAILED_STATUSES = new Set([
  'failed',
  'undelivered',
  'canceled',
  'cancelled',
  'busy',
  'no-answer',
  'no_answer',
  'rejected',
  'expired',
]);

const OUTCOMES: Record<EventMap['notifications.call.completed.v1']['outcome'], string> = {
  accepted: 'answered and accepted by pressing 1',
  not_accepted: 'answered but not accepted (1 was not pressed)',
  no_answer: 'no answer',
  busy: 'line busy',
  failed: 'the call failed',
  canceled: 'the call was canceled',
};

const REMINDER_OUTCOMES: Record<EventMap['notifications.call.completed.v1']['outcome'], string> = {
  accepted: 'answered',
  not_accepted: 'answered',
  no_answer: 'no answer',
  busy: 'line busy',
  failed: 'the call failed',
  canceled: 'the call was canceled',
};

const STEP_ACTIONS: Record<EventMap['escalation.alarm.escalated.v1']['action'], string> = {
  notify_worker: 'alerting the worker',
  notify_monitors: 'alerting the monitors',
  notify_monitor: 'alerting a team monitor',
  notify_deputy: "alerting a monitor's deputy",
  notify_on_call: 'alerting whoever is on call',
  notify_on_call_next: 'alerting the next on-call layer',
  notify_organisation: "alerting all the organisation's monitors",
  call_emergency_numbers: 'calling the emergency numbers',
  message_contacts: 'messaging the emergency contacts',
  hand_off: 'handing the alarm to a receiving centre',
};

type Resolved = EventMap['escalation.alarm.resolved.v1'];
const SEVERITIES: Record<NonNullable<Resolved['severity']>, string> = { minor: 'minor', serious: 'serious', critical: 'critical' };
const REASONS: Record<NonNullable<Resolved['reason']>, string> = {
  forgot_check_in: 'forgot to check in',
  no_signal: 'no signal',
  device: 'device problem',
  other: 'other reason',
};

/** "genuine (serious incident)", "false alarm (no signal)", "test". */
function outcomeOf(e: Resolved): string {
  if (e.verdict === 'test') return 'test';
  if (e.verdict === 'genuine') return e.severity ? `genuine (${SEVERITIES[e.severity]} incident)` : 'genuine';
  return e.reason ? `false alarm (${REASONS[e.reason]})` : 'false alarm';
}

const purposeOf = (purpose: string | undefined) => (purpose ? ` (${PURPOSES[purpose] ?? purpose.replace(/_/g, ' ')})` : '');

function providerError(e: { errorCode?: number; errorMessage?: string }): string {
  if (e.errorCode === undefined && !e.errorMessage) return '';
  const parts = [e.errorCode !== undefined ? `error ${e.errorCode}` : undefined, e.errorMessage].filter(Boolean);
  return ` (${parts.join(': ')})`;
}

async function nameOf(lookup: Lookup, userId: number): Promise<string> {
  return (await lookup.usernameOf(userId)) ?? fallbackUsername(userId);
}

/** A person by name, or a machine by its API token's name and whose token it is. */
async function actorName(lookup: Lookup, userId: number, viaToken: string | undefined): Promise<string> {
  const person = await nameOf(lookup, userId);
  return viaToken ? `${viaToken} (API token of ${person})` : person;
}

/** The provisioning client as an entry names it, e.g. "Entra ID (the organisation's directory)". */
export const directoryActor = (directory: string) => `${directory} (the organisation's directory)`;

/** "a and b" / "a, b and c". */
const listed = (names: string[]) => (names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`);

/** What the directory did to a team's monitors, e.g. "added mo as a monitor of team North". */
async function monitorChange(lookup: Lookup, change: { added: number[]; removed: number[] }, team: string): Promise<string | undefined> {
  const names = (ids: number[]) => Promise.all(ids.map((id) => nameOf(lookup, id)));
  const what = (verb: string, who: string[]) => `${verb} ${listed(who)} as ${who.length === 1 ? 'a monitor' : 'monitors'}`;
  const parts = [
    ...(change.added.length > 0 ? [what('added', await names(change.added))] : []),
    ...(change.removed.length > 0 ? [what('removed', await names(change.removed))] : []),
  ];
  return parts.length > 0 ? `${parts.join(' and ')} of team ${team}` : undefined;
}

/**
 * The activity entry an event stands for, or undefined when it adds nothing to the log (a
 * provider status update of a message already shown). One event, at most one entry.
 */
export async function describeEvent(event: DescribedEvent, lookup: Lookup): Promise<EntryDraft | undefined> {
  switch (event.subject) {
    case 'shifts.shift.started.v1': {
      const e = event.data;
      const by = e.startedBy !== undefined ? ` (started by ${await nameOf(lookup, e.startedBy)})` : '';
      return {
        userId: e.userId,
        type: 'start_shift',
        details: `Started shift at ${e.location}${by}`,
        location: e.location,
        at: new Date(e.startedAt),
      };
    }
    case 'shifts.shift.ended.v1': {
      const e = event.data;
      const base = `Ended shift at ${e.location ?? 'Unknown location'}`;
      const why =
        e.reason === 'forced'
          ? ` (clocked out by ${await nameOf(lookup, e.endedBy)})`
          : e.reason === 'user_deleted'
            ? ' (account deleted)'
            : e.reason === 'deactivated'
              ? ' (account deactivated)'
              : '';
      return { userId: e.userId, type: 'end_shift', details: base + why, location: e.location, at: new Date(e.endedAt) };
    }
    case 'shifts.checkin.recorded.v1': {
      const e = event.data;
      return {
        userId: e.userId,
        type: 'check_in',
        details: `Checked in at ${e.location}; next check-in due at ${londonTime(e.nextCheckInAt)}`,
        location: e.location,
        at: new Date(e.checkedInAt),
      };
    }
    case 'shifts.emergency.raised.v1': {
      const e = event.data;
      const raised = e.duress ? 'DURESS PIN entered: silent emergency raised' : 'Emergency alert raised';
      const details = e.location ? `${raised} at ${e.location}` : `${raised} (not on shift)`;
      return { userId: e.userId, type: 'emergency', details, location: e.location, at: new Date(e.raisedAt), ...duressOnly(e.duress) };
    }
    case 'shifts.deadline.changed.v1': {
      // The worker's "+15 min"; a superadmin's test tools move deadlines unrecorded, as before.
      const e = event.data;
      if (e.reason !== 'extended') return undefined;
      return {
        userId: e.userId,
        type: 'extension',
        details: `Asked for ${e.extendedMinutes ?? 15} more minutes; next check-in due at ${londonTime(e.nextCheckInAt)}`,
        at: new Date(e.changedAt),
      };
    }
    case 'shifts.visit.started.v1': {
      const e = event.data;
      const note = e.visit.hasNote ? ', with a sealed note' : '';
      return {
        userId: e.userId,
        type: 'visit',
        details: `Started a visit to ${e.visit.where} until ${londonTime(e.visit.endsAt)}${note}; next check-in due at ${londonTime(e.nextCheckInAt)}`,
        at: new Date(e.visit.startedAt),
      };
    }
    case 'shifts.visit.ended.v1': {
      const e = event.data;
      const details = {
        worker: 'Ended the visit with the PIN',
        check_in: 'The visit ended with a check-in made after its timer ran out',
        shift_ended: 'The visit ended with the shift',
      }[e.reason];
      return { userId: e.userId, type: 'visit', details: details ?? 'The visit ended', at: new Date(e.endedAt) };
    }
    case 'shifts.visit.note_revealed.v1': {
      // The monitors' record: whoever holds the worker's phone during an alarm must not read who looked.
      const e = event.data;
      return {
        userId: e.userId,
        type: 'visit',
        details: `${await actorName(lookup, e.byUserId, e.viaToken)} read the sealed note of the visit, on its alarm`,
        at: new Date(e.revealedAt),
        monitorsOnly: true,
      };
    }
    case 'escalation.alarm.opened.v1': {
      const e = event.data;
      if (e.kind === 'missed_check_in') {
        const due = e.dueAt ? `: the check-in due at ${londonTime(e.dueAt)} did not come` : '';
        return {
          userId: e.userId,
          type: 'missed_check_in',
          details: `Missed check-in${at(e.location)}${due}; escalation started`,
          location: e.location,
          at: new Date(e.openedAt),
        };
      }
      return {
        userId: e.userId,
        type: 'emergency',
        details: e.duress
          ? `DURESS alarm opened${at(e.location)}; every step runs at once`
          : `Emergency alarm opened${at(e.location)}; escalation started`,
        location: e.location,
        at: new Date(e.openedAt),
        ...duressOnly(e.duress),
      };
    }
    case 'escalation.alarm.acknowledged.v1': {
      const e = event.data;
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Alarm acknowledged by ${await actorName(lookup, e.byUserId, e.viaToken)}`,
        at: new Date(e.at),
        ...duressOnly(e.duress),
      };
    }
    case 'escalation.alarm.resolved.v1': {
      const e = event.data;
      const note = e.note.trim();
      const shown = note.length > NOTE_MAX ? `${note.slice(0, NOTE_MAX - 1)}…` : note;
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Alarm resolved by ${await actorName(lookup, e.byUserId, e.viaToken)} as ${outcomeOf(e)}${shown ? `. Note: ${shown}` : ''}`,
        at: new Date(e.at),
        ...duressOnly(e.duress),
      };
    }
    case 'escalation.alarm.escalated.v1': {
      const e = event.data;
      const more = e.details.trim() ? `: ${e.details.trim()}` : '';
      // Steps are numbered from 0 on the wire; people count from 1.
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Escalation step ${e.step + 1}, ${STEP_ACTIONS[e.action]}${more}`,
        at: new Date(e.at),
        ...duressOnly(e.duress),
      };
    }
    case 'escalation.alarm.worker_safe.v1': {
      const e = event.data;
      if (e.underDuress) {
        return {
          userId: e.userId,
          type: 'system_alert',
          details: `DURESS PIN entered to cancel the emergency at ${londonTime(e.at)}: they may be under threat; escalation continues`,
          at: new Date(e.at),
          monitorsOnly: true,
        };
      }
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Said they are safe at ${londonTime(e.at)} (PIN entered): escalation stopped; the emergency stays open until a monitor confirms it`,
        at: new Date(e.at),
      };
    }
    case 'escalation.alarm.late_check_in.v1': {
      const e = event.data;
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Checked in late at ${londonTime(e.checkedInAt)} while the missed check-in alarm was open; escalation stopped, the alarm stays open until a monitor resolves it`,
        at: new Date(e.checkedInAt),
      };
    }
    case 'escalation.alarm.pressed_again.v1': {
      const e = event.data;
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Pressed the emergency button again at ${londonTime(e.pressedAt)}: it joined the emergency alarm already escalating, no second alarm opened`,
        at: new Date(e.pressedAt),
      };
    }
    case 'escalation.alarm.note_added.v1': {
      const e = event.data;
      const text = e.text.trim();
      const shown = text.length > NOTE_MAX ? `${text.slice(0, NOTE_MAX - 1)}…` : text;
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Note on the alarm from ${await actorName(lookup, e.byUserId, e.viaToken)}: ${shown}`,
        at: new Date(e.at),
        ...duressOnly(e.duress),
      };
    }
    case 'escalation.checkin_request.created.v1': {
      const e = event.data;
      return {
        userId: e.userId,
        type: 'system_alert',
        details: `Asked to check in now by ${await actorName(lookup, e.byUserId, e.viaToken)}, by ${londonTime(e.dueAt)}`,
        at: new Date(e.requestedAt),
      };
    }
    case 'escalation.checkin_request.closed.v1': {
      const e = event.data;
      const details = {
        answered: `Answered the request to check in at ${londonTime(e.at)}`,
        alarm: `Did not answer the request to check in by ${londonTime(e.at)}: missed check-in alarm`,
        shift_ended: 'The request to check in was closed: the shift ended',
      }[e.outcome];
      return { userId: e.userId, type: 'system_alert', details, at: new Date(e.at) };
    }
    case 'escalation.system_alert.raised.v1': {
      const e = event.data;
      return { userId: e.userId ?? null, type: 'system_alert', details: e.details, at: new Date(e.at) };
    }
    case 'identity.pin.locked.v1': {
      const e = event.data;
      return {
        userId: e.userId,
        username: e.username,
        type: 'system_alert',
        details: `PIN locked after 5 wrong PINs within 15 minutes; PIN actions are refused until ${londonTime(e.lockedUntil)}`,
        at: new Date(event.occurredAt),
      };
    }
    case 'identity.user.deactivated.v1':
    case 'identity.user.reactivated.v1': {
      const e = event.data;
      const by = e.directory ? `${e.directory} (the organisation's directory)` : await nameOf(lookup, e.byUserId);
      const details =
        event.subject === 'identity.user.deactivated.v1'
          ? `Account deactivated by ${by}: every session was signed out`
          : `Account reactivated by ${by}`;
      return { userId: e.userId, type: 'system_alert', details, at: new Date(event.occurredAt) };
    }
    case 'identity.api_token.created.v1': {
      const e = event.data;
      return {
        userId: e.byUserId,
        type: 'system_alert',
        details: `API token "${e.name}" created by ${await nameOf(lookup, e.byUserId)} with scopes ${e.scopes.join(', ')}, valid until ${londonTime(e.expiresAt)}`,
        at: new Date(event.occurredAt),
      };
    }
    case 'identity.api_token.revoked.v1': {
      const e = event.data;
      return {
        userId: e.ownerId,
        type: 'system_alert',
        details: `API token "${e.name}" revoked by ${await nameOf(lookup, e.byUserId)}: it is refused from now on`,
        at: new Date(event.occurredAt),
      };
    }
    case 'identity.user.created.v1': {
      const e = event.data;
      if (!e.directory) return undefined;
      return {
        userId: e.userId,
        username: e.username,
        type: 'system_alert',
        details: `${directoryActor(e.directory)} created the account of ${e.name} (${e.username})`,
        at: new Date(event.occurredAt),
      };
    }
    case 'identity.user.updated.v1': {
      const e = event.data;
      if (!e.directory) return undefined;
      const who = e.name ?? (await nameOf(lookup, e.userId));
      const what = e.movedToTeam ? `moved ${who} to team ${e.movedToTeam}` : `updated the account of ${who}`;
      return { userId: e.userId, type: 'system_alert', details: `${directoryActor(e.directory)} ${what}`, at: new Date(event.occurredAt) };
    }
    case 'identity.team.changed.v1': {
      const e = event.data;
      if (!e.directory) return undefined;
      const team = e.team.name;
      const what =
        e.change === 'created'
          ? `created team ${team}`
          : e.change === 'deleted'
            ? `deleted team ${team}`
            : ((e.monitorsChanged && (await monitorChange(lookup, e.monitorsChanged, team))) ?? `updated team ${team}`);
      // The superadmin who created the directory's token answers for it, as for its other changes.
      return {
        userId: e.changedBy,
        type: 'system_alert',
        details: `${directoryActor(e.directory)} ${what}`,
        at: new Date(event.occurredAt),
      };
    }
    case 'notifications.message.sent.v1':
      return describeMessage(event.data, new Date(event.occurredAt), await lookup.loggedStages(event.data.messageId));
    case 'notifications.call.completed.v1': {
      const e = event.data;
      // A reminder call asks for the PIN, not for a 1: whether the worker checked in is the check-in's own entry.
      const reminder = e.purpose?.startsWith('reminder_')
        ? `${PURPOSES[e.purpose] ?? 'check-in reminder'} call to ${e.to}: ${REMINDER_OUTCOMES[e.outcome]}`
        : undefined;
      return {
        userId: e.userId ?? null,
        type: 'call_made',
        details: reminder ?? `Called ${e.to}: ${OUTCOMES[e.outcome]}`,
        at: new Date(e.at),
      };
    }
  }
}

/**
 * A message's provider updates: the first one shows that it went out (SMS, WhatsApp, a call
 * placed), and the first failure after it shows that it did not get through. A call's ending
 * is its own event (call completed); a push shows only when it fails.
 */
function describeMessage(
  e: EventMap['notifications.message.sent.v1'],
  at: Date,
  logged: ReadonlySet<MessageStage>,
): EntryDraft | undefined {
  const failed = FAILED_STATUSES.has(e.status.toLowerCase()) || e.errorCode !== undefined;
  const userId = e.userId ?? null;
  const what = CHANNELS[e.channel];
  const purpose = purposeOf(e.purpose);
  const failure = `${what} to ${e.to}${purpose} failed: ${e.status}${providerError(e)}`;
  if (e.channel === 'push') {
    if (!failed || logged.has('failure')) return undefined;
    return {
      userId,
      type: 'system_alert',
      details: `${what}${purpose} failed: ${e.status}${providerError(e)}`,
      at,
      marks: { messageId: e.messageId, stages: ['failure'] },
    };
  }
  const type: EntryType = e.channel === 'voice' ? 'call_made' : 'sms_sent';
  if (!logged.has('first')) {
    const details = failed
      ? failure
      : e.channel === 'voice'
        ? `Calling ${e.to}${purpose}: ${e.status}`
        : `${what} to ${e.to}${purpose}: ${e.status}`;
    return { userId, type, details, at, marks: { messageId: e.messageId, stages: failed ? ['first', 'failure'] : ['first'] } };
  }
  if (e.channel === 'voice' || !failed || logged.has('failure')) return undefined;
  return { userId, type, details: failure, at, marks: { messageId: e.messageId, stages: ['failure'] } };
}
