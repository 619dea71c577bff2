import { Inject, Injectable } from '@nestjs/common';
import type { EventMap, TranslatableText } from '@lws/contracts';
import type { PendingEvent } from '@lws/messaging';
import { insertRows, type Emit, type Tx } from '@lws/platform';
import { SETTINGS, type EscalationSettings } from '../config';
import { alarmEvents, notificationRequests, type AlarmRow, type DeadlinePayload, type TeamMonitor, type WorkerRow } from '../db/schema';
import { dialable } from '../workers/phone';
import { english, monitorsAlarm, workerAlarmText, workerAlarmTitle, WORKER_TEXT, type AlarmFacts } from './messages';
import { requestEvent, systemAlertEvent, urgentOrNot, type RequestSpec } from './notifier';
import type { FrozenOnCall, PolicyAction, PolicyStep } from './policy';

/** Users by id as a step needs them (monitors and deputies): name, away time, deleted. */
export type People = Map<number, Pick<WorkerRow, 'name' | 'awayUntil' | 'deletedAt'>>;

/** A request a step makes, with whom it is about. */
export type StepRequest = RequestSpec & { urgent: boolean };

/**
 * What one run of a policy step does, planned from what was read beforehand, so that one alarm's
 * step and a whole pass of them are written the same way (AlarmSteps.apply): the requests, the
 * operators' alerts, the lines of the alarm's history, and the escalated event's details.
 */
export interface StepPlan {
  alarm: AlarmRow;
  index: number;
  action: PolicyAction;
  requests: StepRequest[];
  alerts: { code: string; details: string }[];
  notes: { text: string; workerText?: string }[];
  /** The escalated event's details; none: no event (a step that is not a policy step, such as the reminder of an open alarm). */
  escalated?: string;
}

export const facts = (a: AlarmRow): AlarmFacts => ({
  kind: a.kind,
  userId: a.userId,
  workerName: a.workerName,
  location: a.location,
  openedAt: a.openedAt,
  dueAt: a.dueAt,
  duress: a.duress,
});

/**
 * Whether the worker's own session may hear of this alarm's steps: not of a duress alarm, nor of
 * one they cancelled with the duress PIN (the PIN would have stopped its steps, so any step they
 * saw after it would tell the person holding their phone which PIN it was).
 */
export const hiddenFromWorker = (a: AlarmRow): boolean => a.duress || a.safeUnderDuress;
export const monitorsOnly = (a: AlarmRow): { duress?: true } => (hiddenFromWorker(a) ? { duress: true } : {});

/** The team an alarm's events name: the worker's when it opened, whose admins hear of it (none before teams). */
export const teamOf = (teamId: number | null | undefined): { teamId?: number } => (teamId ? { teamId } : {});

export const labelOf = (a: AlarmRow) => a.workerName ?? `worker #${a.userId}`;

/** An alarm deadline's payload; an emergency's (duress included) is marked urgent, which the scheduler claims first. */
export const stepPayload = (alarm: Pick<AlarmRow, 'id' | 'kind'>, step: Omit<DeadlinePayload, 'alarmId' | 'urgent'>): DeadlinePayload => ({
  alarmId: alarm.id,
  ...step,
  ...(alarm.kind === 'emergency' ? { urgent: true as const } : {}),
});

/** Whom an alarm's requests are about; an emergency's (duress included) go on notifications' urgent lane. */
export const requestIds = (alarm: AlarmRow, since: Date) => ({
  userId: alarm.userId,
  alarmId: alarm.id,
  urgent: alarm.kind === 'emergency',
  since: since.toISOString(),
});

/** The steps whose run only tells people (pushes, texts): planned from what was read, written set-based. */
export const TELLING_ACTIONS: ReadonlySet<PolicyAction> = new Set([
  'notify_worker',
  'notify_monitors',
  'notify_monitor',
  'notify_deputy',
  'notify_on_call',
  'notify_on_call_next',
  'notify_organisation',
]);

/** The monitors and deputies whose names and away times a telling step of this alarm may need. */
export const peopleOf = (monitors: TeamMonitor[] | undefined): number[] =>
  (monitors ?? []).flatMap((m) => [m.userId, ...(m.deputyUserId !== undefined ? [m.deputyUserId] : [])]);

/** notify_worker: a push to the worker, and an SMS when a phone number is known (else an operator hears why not). */
export function planNotifyWorker(
  alarm: AlarmRow,
  index: number,
  worker: Pick<WorkerRow, 'phone' | 'language'> | undefined,
  since: Date,
): StepPlan {
  const f = facts(alarm);
  const ids = requestIds(alarm, since);
  const phone = dialable(worker?.phone);
  const language = worker?.language ?? null;
  const text = workerAlarmText(f, language);
  const spoken = language ? { language } : {};
  const requests: StepRequest[] = [
    { channel: 'push', toUserId: alarm.userId, purpose: alarm.kind, title: workerAlarmTitle(f, language), body: text, ...spoken, ...ids },
  ];
  if (phone) requests.push({ channel: 'sms', toPhone: phone, purpose: alarm.kind, body: text, ...spoken, ...ids });
  const details = phone ? `Worker notified by push and SMS to ${phone}` : 'Worker notified by push (no phone number for SMS)';
  return {
    alarm,
    index,
    action: 'notify_worker',
    requests,
    alerts: phone
      ? []
      : [
          {
            code: 'worker_phone_missing',
            details: `No phone number known for ${labelOf(alarm)}: the alarm SMS to the worker was not sent`,
          },
        ],
    notes: [{ text: details }],
    escalated: details,
  };
}

/**
 * The push to the monitors a step names: the team's monitors in order, one of them, or
 * a deputy, each away monitor replaced by their deputy; the organisation's (every admin) for an
 * alarm with no team, for notify_organisation, and whenever the step would reach nobody, so an
 * alarm is never told to no one. Answers the request and the line for the alarm's history.
 * Its title and `body` go as texts to translate too, which notifications writes in each
 * monitor's language, with their English rendering for everyone else.
 */
export function monitorsPush(
  alarm: AlarmRow,
  step: PolicyStep,
  body: TranslatableText,
  people: People,
  now: Date,
  since: Date,
): { request: StepRequest; details: string } {
  const title = monitorsAlarm(facts(alarm)).title;
  const texts = { title: english(title), body: english(body), titleText: title, bodyText: body };
  const ids = requestIds(alarm, since);
  const team = alarm.policy.monitors;
  const who = team && step.action !== 'notify_organisation' ? teamRecipients(team, step, people, now, alarm.policy.onCall) : undefined;
  if (!who || who.userIds.length === 0) {
    const why = !team || step.action === 'notify_organisation' ? '' : `: ${who?.why ?? 'no team monitor could be told'}`;
    return {
      request: { channel: 'push', toRole: 'monitors', purpose: alarm.kind, ...texts, ...ids },
      details: `All monitors notified by push${why}`,
    };
  }
  // One request for all of them, as for every admin: a monitor without a push subscription is no failure while another has one.
  return {
    request: { channel: 'push', toUsers: { userIds: who.userIds }, purpose: alarm.kind, ...texts, ...ids },
    details: `${who.label} notified by push`,
  };
}

/** notify_monitors, notify_monitor, notify_deputy, notify_organisation. */
export function planNotifyMonitors(
  alarm: AlarmRow,
  index: number,
  step: PolicyStep,
  body: TranslatableText,
  people: People,
  now: Date,
  since: Date,
): StepPlan {
  const { request, details } = monitorsPush(alarm, step, body, people, now, since);
  return {
    alarm,
    index,
    action: step.action,
    requests: [request],
    alerts: [],
    notes: [{ text: details, workerText: WORKER_TEXT.monitorsAlerted }],
    escalated: details,
  };
}

/**
 * Who of a team a step reaches now: monitors in order, an away one's deputy in their place; for the
 * on-call steps, the person the rota had on call when the alarm opened (their deputy while they are
 * away), else the team's monitors with the reason in the history, so the step never reaches nobody.
 */
export function teamRecipients(
  monitors: TeamMonitor[],
  step: PolicyStep,
  people: People,
  now: Date,
  onCall?: FrozenOnCall,
): { userIds: number[]; label: string; why?: string } {
  const away = (id: number) => (people.get(id)?.awayUntil?.getTime() ?? 0) > now.getTime();
  // One escalation has not heard of is told all the same: only a deleted account is passed over.
  const known = (id: number) => !people.get(id)?.deletedAt;
  const name = (id: number) => people.get(id)?.name ?? `user #${id}`;
  /** The monitor, or their deputy while they are away; undefined when neither can be told. */
  const stand = (m: TeamMonitor) => {
    if (known(m.userId) && !away(m.userId)) return { id: m.userId, label: name(m.userId) };
    if (m.deputyUserId !== undefined && known(m.deputyUserId) && !away(m.deputyUserId)) {
      return { id: m.deputyUserId, label: `${name(m.deputyUserId)} (deputy for ${name(m.userId)}, away)` };
    }
    return undefined;
  };
  if (step.action === 'notify_on_call' || step.action === 'notify_on_call_next') {
    const person = step.action === 'notify_on_call' ? onCall?.now : onCall?.next;
    const deputy = person && monitors.find((m) => m.userId === person.userId)?.deputyUserId;
    const s = person && stand({ userId: person.userId, ...(deputy !== undefined ? { deputyUserId: deputy } : {}) });
    if (person && s) return { userIds: [s.id], label: `On call (${person.layerName}), ${s.label},` };
    const why = !onCall
      ? 'the team has no on-call rota'
      : !person
        ? step.action === 'notify_on_call'
          ? 'nobody was on call for the team when the alarm opened'
          : 'no other layer of the rota had someone on call when the alarm opened'
        : `${name(person.userId)}, on call, and their deputy are away`;
    const fallback = teamRecipients(monitors, { action: 'notify_monitors', after: step.after }, people, now);
    return {
      ...fallback,
      label: fallback.userIds.length ? `${fallback.label} (${why})` : fallback.label,
      why: `${why}, and ${fallback.why}`,
    };
  }
  if (step.action === 'notify_monitor' || step.action === 'notify_deputy') {
    const m = monitors[step.position - 1];
    if (!m) return { userIds: [], label: '', why: `the team has no monitor ${step.position}` };
    if (step.action === 'notify_monitor') {
      const s = stand(m);
      return s
        ? { userIds: [s.id], label: `Monitor ${step.position}, ${s.label},` }
        : { userIds: [], label: '', why: `monitor ${step.position} and their deputy are away` };
    }
    const d = m.deputyUserId;
    if (d === undefined || !known(d) || away(d))
      return { userIds: [], label: '', why: `monitor ${step.position} has no deputy who can be told` };
    return { userIds: [d], label: `${name(d)}, deputy for ${name(m.userId)},` };
  }
  const stands = monitors.map(stand).filter((x) => x !== undefined);
  const unique = [...new Map(stands.map((x) => [x.id, x])).values()];
  return {
    userIds: unique.map((x) => x.id),
    label: `Team monitors ${unique.map((x) => x.label).join(', ')}`,
    why: 'every team monitor and deputy is away',
  };
}

/** The escalated event of a step that ran. */
export function escalatedEvent(
  alarm: AlarmRow,
  index: number,
  action: PolicyAction,
  at: Date,
  details: string,
): { subject: 'escalation.alarm.escalated.v1'; data: EventMap['escalation.alarm.escalated.v1'] } {
  return {
    subject: 'escalation.alarm.escalated.v1',
    data: {
      alarmId: alarm.id,
      userId: alarm.userId,
      step: index,
      action,
      at: at.toISOString(),
      details,
      ...monitorsOnly(alarm),
      ...teamOf(alarm.teamId),
    },
  };
}

/**
 * Writes planned steps, one alarm's or a whole pass's, in a few statements whatever their number:
 * every event in one outbox insert (each alarm's in the order the step makes them), the alarm
 * requests' tracking in one insert, and the history lines in one.
 */
@Injectable()
export class AlarmSteps {
  constructor(@Inject(SETTINGS) private readonly settings: EscalationSettings) {}

  async apply(
    tx: Tx,
    emit: Emit,
    plans: readonly StepPlan[],
    now: Date,
    before: { events?: PendingEvent[]; notes?: (typeof alarmEvents.$inferInsert)[] } = {},
  ): Promise<void> {
    const events: PendingEvent[] = [...(before.events ?? [])];
    const notes: (typeof alarmEvents.$inferInsert)[] = [...(before.notes ?? [])];
    const tracked: (typeof notificationRequests.$inferInsert)[] = [];
    const askAt = new Date(now.getTime() + this.settings.requestConfirmMs);
    for (const p of plans) {
      for (const { urgent, ...spec } of p.requests) {
        const { data } = requestEvent(spec);
        events.push(urgentOrNot(data, urgent));
        if (data.alarmId)
          tracked.push({ requestId: data.requestId, alarmId: data.alarmId, request: data, requestedAt: now, nextAskAt: askAt });
      }
      for (const a of p.alerts) events.push(systemAlertEvent(a.code, a.details, now, p.alarm.userId));
      for (const n of p.notes) notes.push({ alarmId: p.alarm.id, at: now, text: n.text, workerText: n.workerText ?? null });
      if (p.escalated !== undefined) events.push(escalatedEvent(p.alarm, p.index, p.action, now, p.escalated));
    }
    await emit.many(events);
    await insertRows(tx, notificationRequests, tracked);
    await insertRows(tx, alarmEvents, notes);
  }
}
