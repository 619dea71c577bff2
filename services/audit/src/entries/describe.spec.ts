import { randomUUID } from 'node:crypto';
import { parseEvent, type EventMap } from '@lws/contracts';
import { describeEvent, NOTE_MAX, type DescribedEvent, type DescribedSubject, type MessageStage } from './describe';
import { displayUsername, ENTRY_TYPES, labelOf } from './entry-types';

const SHIFT = randomUUID();
const ALARM = randomUUID();
const MESSAGE = randomUUID();
// 13:30 UTC on a summer day is 14:30 in London.
const T = '2030-07-01T13:30:00.000Z';
const LATER = '2030-07-01T14:30:00.000Z';

/** A contract-valid envelope: the data is checked against the proto, as the consumer would. */
function envelope<S extends DescribedSubject>(subject: S, data: EventMap[S], occurredAt = T): DescribedEvent {
  return { id: randomUUID(), subject, occurredAt, producer: 'test', data: parseEvent(subject, data) } as DescribedEvent;
}

const names = new Map([
  [7, 'monitor.mo'],
  [9, 'super'],
]);

function lookup(logged: MessageStage[] = []) {
  return {
    usernameOf: async (id: number) => names.get(id),
    loggedStages: async () => new Set(logged),
  };
}

const describeOf = (e: DescribedEvent, logged?: MessageStage[]) => describeEvent(e, lookup(logged));

describe('labels (spec section 3)', () => {
  it.each([
    ['check_in', 'Check In'],
    ['emergency', 'Emergency'],
    ['missed_check_in', 'Missed Check-In'],
    ['start_shift', 'Start Shift'],
    ['end_shift', 'End Shift'],
    ['sms_sent', 'SMS Sent'],
    ['call_made', 'Call Made'],
    ['system_alert', 'System Alert'],
    ['extension', 'Check-In Extended'],
    ['visit', 'Visit'],
  ])('%s reads as %s', (type, label) => {
    expect(labelOf(type)).toBe(label);
  });

  it.each(['shift_started', '', 'toString', 'constructor', 'CHECK_IN'])('any other type (%p) reads as Unknown', (type) => {
    expect(labelOf(type)).toBe('Unknown');
  });

  it('names exactly the eight types of the spec, the worker\'s "+15 min" extension and timed visits (written by the server only)', () => {
    expect(ENTRY_TYPES).toEqual([
      'check_in',
      'emergency',
      'missed_check_in',
      'start_shift',
      'end_shift',
      'sms_sent',
      'call_made',
      'system_alert',
      'extension',
      'visit',
    ]);
  });

  it('falls back to a username built from the id, and to System without a user', () => {
    expect(displayUsername(42, null)).toBe('user-42');
    expect(displayUsername(42, 'jo')).toBe('jo');
    expect(displayUsername(null, null)).toBe('System');
  });
});

describe('what each event writes', () => {
  it('shift started: start_shift "Started shift at {location}"', async () => {
    const e = envelope('shifts.shift.started.v1', { shiftId: SHIFT, userId: 3, location: 'Depot', startedAt: T, nextCheckInAt: LATER });
    expect(await describeOf(e)).toEqual({
      userId: 3,
      type: 'start_shift',
      details: 'Started shift at Depot',
      location: 'Depot',
      at: new Date(T),
    });
  });

  it('shift ended by the worker: end_shift "Ended shift at {location}"', async () => {
    const e = envelope('shifts.shift.ended.v1', { shiftId: SHIFT, userId: 3, endedAt: T, endedBy: 3, reason: 'worker', location: 'Depot' });
    expect(await describeOf(e)).toEqual({
      userId: 3,
      type: 'end_shift',
      details: 'Ended shift at Depot',
      location: 'Depot',
      at: new Date(T),
    });
  });

  it('shift ended without a known location: "Ended shift at Unknown location"', async () => {
    const e = envelope('shifts.shift.ended.v1', { shiftId: SHIFT, userId: 3, endedAt: T, endedBy: 3, reason: 'worker' });
    expect(await describeOf(e)).toMatchObject({ type: 'end_shift', details: 'Ended shift at Unknown location', location: undefined });
  });

  it('a forced clock-out names who did it; an unknown actor by the fallback', async () => {
    const forced = (endedBy: number) =>
      envelope('shifts.shift.ended.v1', { shiftId: SHIFT, userId: 3, endedAt: T, endedBy, reason: 'forced', location: 'Depot' });
    expect((await describeOf(forced(9)))?.details).toBe('Ended shift at Depot (clocked out by super)');
    expect((await describeOf(forced(77)))?.details).toBe('Ended shift at Depot (clocked out by user-77)');
  });

  it('a shift ended by the account deletion says so', async () => {
    const e = envelope('shifts.shift.ended.v1', {
      shiftId: SHIFT,
      userId: 3,
      endedAt: T,
      endedBy: 9,
      reason: 'user_deleted',
      location: 'Depot',
    });
    expect((await describeOf(e))?.details).toBe('Ended shift at Depot (account deleted)');
  });

  it('check-in: check_in with the place and the next deadline in London time', async () => {
    const e = envelope('shifts.checkin.recorded.v1', {
      checkInId: randomUUID(),
      shiftId: SHIFT,
      userId: 3,
      location: 'Depot',
      checkedInAt: T,
      nextCheckInAt: LATER,
    });
    expect(await describeOf(e)).toEqual({
      userId: 3,
      type: 'check_in',
      details: 'Checked in at Depot; next check-in due at 15:30',
      location: 'Depot',
      at: new Date(T),
    });
  });

  it('emergency raised: emergency, on shift at a place or off shift', async () => {
    const on = envelope('shifts.emergency.raised.v1', {
      emergencyId: randomUUID(),
      userId: 3,
      shiftId: SHIFT,
      location: 'Depot',
      raisedAt: T,
    });
    const off = envelope('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: 3, raisedAt: T });
    expect(await describeOf(on)).toEqual({
      userId: 3,
      type: 'emergency',
      details: 'Emergency alert raised at Depot',
      location: 'Depot',
      at: new Date(T),
    });
    expect(await describeOf(off)).toMatchObject({ type: 'emergency', details: 'Emergency alert raised (not on shift)' });
  });

  it('duress: the silent emergency and its alarm say DURESS', async () => {
    const raised = envelope('shifts.emergency.raised.v1', {
      emergencyId: randomUUID(),
      userId: 3,
      shiftId: SHIFT,
      location: 'Depot',
      raisedAt: T,
      duress: true,
    });
    expect(await describeOf(raised)).toMatchObject({ type: 'emergency', details: 'DURESS PIN entered: silent emergency raised at Depot' });
    const opened = envelope('escalation.alarm.opened.v1', {
      alarmId: ALARM,
      userId: 3,
      kind: 'emergency',
      openedAt: T,
      location: 'Depot',
      duress: true,
    });
    expect(await describeOf(opened)).toMatchObject({ type: 'emergency', details: 'DURESS alarm opened at Depot; every step runs at once' });
  });

  it("duress: every entry of a duress alarm is for monitors only; an ordinary alarm's entries are not marked", async () => {
    const life = (duress: boolean) => [
      envelope('shifts.emergency.raised.v1', {
        emergencyId: randomUUID(),
        userId: 3,
        shiftId: SHIFT,
        location: 'Depot',
        raisedAt: T,
        ...(duress ? { duress } : {}),
      }),
      envelope('escalation.alarm.opened.v1', {
        alarmId: ALARM,
        userId: 3,
        kind: 'emergency',
        openedAt: T,
        location: 'Depot',
        ...(duress ? { duress } : {}),
      }),
      envelope('escalation.alarm.escalated.v1', {
        alarmId: ALARM,
        userId: 3,
        step: 0,
        action: 'notify_monitors',
        at: T,
        details: 'Pushed',
        ...(duress ? { duress } : {}),
      }),
      envelope('escalation.alarm.acknowledged.v1', { alarmId: ALARM, userId: 3, byUserId: 1, at: T, ...(duress ? { duress } : {}) }),
      envelope('escalation.alarm.resolved.v1', {
        alarmId: ALARM,
        userId: 3,
        byUserId: 1,
        at: T,
        verdict: 'genuine',
        note: 'Police sent',
        ...(duress ? { duress } : {}),
      }),
    ];
    for (const e of life(true)) expect(await describeOf(e)).toMatchObject({ monitorsOnly: true });
    for (const e of life(false)) expect((await describeOf(e))?.monitorsOnly).toBeUndefined();
  });

  it('duress: "I\'m safe" entered with the duress PIN is a monitors-only warning, not the safe entry', async () => {
    const safe = (underDuress: boolean) =>
      envelope('escalation.alarm.worker_safe.v1', { alarmId: ALARM, userId: 3, at: T, ...(underDuress ? { underDuress } : {}) });
    expect(await describeOf(safe(true))).toEqual({
      userId: 3,
      type: 'system_alert',
      details: 'DURESS PIN entered to cancel the emergency at 14:30: they may be under threat; escalation continues',
      at: new Date(T),
      monitorsOnly: true,
    });
    expect(await describeOf(safe(false))).toMatchObject({ details: expect.stringMatching(/^Said they are safe at 14:30/) });
  });

  it("deadline changed: the worker's extension is an entry of its own; a superadmin's test tools are not logged", async () => {
    const moved = (reason: 'extended' | 'simulated' | 'reset') =>
      envelope('shifts.deadline.changed.v1', {
        shiftId: SHIFT,
        userId: 3,
        nextCheckInAt: LATER,
        reason,
        byUserId: 3,
        changedAt: T,
        ...(reason === 'extended' ? { extendedMinutes: 15 } : {}),
      });
    expect(await describeOf(moved('extended'))).toEqual({
      userId: 3,
      type: 'extension',
      details: 'Asked for 15 more minutes; next check-in due at 15:30',
      at: new Date(T),
    });
    expect(await describeOf(moved('simulated'))).toBeUndefined();
    expect(await describeOf(moved('reset'))).toBeUndefined();
  });

  it('alarm opened for a missed check-in: missed_check_in with the deadline that passed', async () => {
    const e = envelope('escalation.alarm.opened.v1', {
      alarmId: ALARM,
      userId: 3,
      kind: 'missed_check_in',
      openedAt: LATER,
      location: 'Depot',
      dueAt: T,
    });
    expect(await describeOf(e)).toEqual({
      userId: 3,
      type: 'missed_check_in',
      details: 'Missed check-in at Depot: the check-in due at 14:30 did not come; escalation started',
      location: 'Depot',
      at: new Date(LATER),
    });
  });

  it('alarm opened for an emergency: emergency, escalation started', async () => {
    const e = envelope('escalation.alarm.opened.v1', { alarmId: ALARM, userId: 3, kind: 'emergency', openedAt: T });
    expect(await describeOf(e)).toMatchObject({ userId: 3, type: 'emergency', details: 'Emergency alarm opened; escalation started' });
  });

  it('alarm acknowledged: system_alert naming the monitor', async () => {
    const e = envelope('escalation.alarm.acknowledged.v1', { alarmId: ALARM, userId: 3, byUserId: 7, at: T });
    expect(await describeOf(e)).toEqual({ userId: 3, type: 'system_alert', details: 'Alarm acknowledged by monitor.mo', at: new Date(T) });
  });

  it('alarm resolved: system_alert with the monitor, the verdict and the note (shortened when long)', async () => {
    const resolved = (verdict: 'genuine' | 'false_alarm', note: string) =>
      envelope('escalation.alarm.resolved.v1', { alarmId: ALARM, userId: 3, byUserId: 7, at: T, verdict, note });
    expect(await describeOf(resolved('false_alarm', 'Phone battery died'))).toMatchObject({
      type: 'system_alert',
      details: 'Alarm resolved by monitor.mo as false alarm. Note: Phone battery died',
    });
    expect((await describeOf(resolved('genuine', '  ')))?.details).toBe('Alarm resolved by monitor.mo as genuine');
    const long = (await describeOf(resolved('genuine', 'x'.repeat(2000))))!.details;
    expect(long.endsWith(`Note: ${'x'.repeat(NOTE_MAX - 1)}…`)).toBe(true);
  });

  it('check in now: the request and how it ended are entries of the worker asked', async () => {
    const ids = { requestId: randomUUID(), batchId: randomUUID(), userId: 3 };
    expect(
      await describeOf(envelope('escalation.checkin_request.created.v1', { ...ids, byUserId: 7, requestedAt: T, dueAt: LATER })),
    ).toEqual({ userId: 3, type: 'system_alert', details: 'Asked to check in now by monitor.mo, by 15:30', at: new Date(T) });
    const closed = async (outcome: 'answered' | 'alarm' | 'shift_ended') =>
      (await describeOf(envelope('escalation.checkin_request.closed.v1', { ...ids, outcome, at: T })))?.details;
    expect(await closed('answered')).toBe('Answered the request to check in at 14:30');
    expect(await closed('alarm')).toBe('Did not answer the request to check in by 14:30: missed check-in alarm');
    expect(await closed('shift_ended')).toBe('The request to check in was closed: the shift ended');
  });

  it('alarm resolved: the outcome reads with its severity or reason, a test as a test', async () => {
    const resolved = (outcome: Record<string, string>) =>
      envelope('escalation.alarm.resolved.v1', { alarmId: ALARM, userId: 3, byUserId: 7, at: T, note: 'Seen', ...outcome } as never);
    expect((await describeOf(resolved({ verdict: 'genuine', severity: 'serious' })))?.details).toBe(
      'Alarm resolved by monitor.mo as genuine (serious incident). Note: Seen',
    );
    expect((await describeOf(resolved({ verdict: 'false_alarm', reason: 'forgot_check_in' })))?.details).toBe(
      'Alarm resolved by monitor.mo as false alarm (forgot to check in). Note: Seen',
    );
    expect((await describeOf(resolved({ verdict: 'test' })))?.details).toBe('Alarm resolved by monitor.mo as test. Note: Seen');
  });

  it.each([
    ['notify_worker', 'Escalation step 1, alerting the worker: SMS and call to the worker'],
    ['notify_monitors', 'Escalation step 1, alerting the monitors: SMS and call to the worker'],
    ['call_emergency_numbers', 'Escalation step 1, calling the emergency numbers: SMS and call to the worker'],
    ['message_contacts', 'Escalation step 1, messaging the emergency contacts: SMS and call to the worker'],
  ] as const)('escalation step %s: system_alert "%s"', async (action, details) => {
    const e = envelope('escalation.alarm.escalated.v1', {
      alarmId: ALARM,
      userId: 3,
      step: 0,
      action,
      at: T,
      details: 'SMS and call to the worker',
    });
    expect(await describeOf(e)).toEqual({ userId: 3, type: 'system_alert', details, at: new Date(T) });
  });

  it('late check-in during an alarm: system_alert saying escalation stopped and the alarm stays open', async () => {
    const e = envelope('escalation.alarm.late_check_in.v1', { alarmId: ALARM, userId: 3, checkedInAt: T });
    expect(await describeOf(e)).toMatchObject({
      type: 'system_alert',
      details:
        'Checked in late at 14:30 while the missed check-in alarm was open; escalation stopped, the alarm stays open until a monitor resolves it',
    });
  });

  it('a second press joined the open emergency: system_alert saying no second alarm opened', async () => {
    const e = envelope('escalation.alarm.pressed_again.v1', { alarmId: ALARM, userId: 3, emergencyId: randomUUID(), pressedAt: T });
    expect(await describeOf(e)).toEqual({
      userId: 3,
      type: 'system_alert',
      details: 'Pressed the emergency button again at 14:30: it joined the emergency alarm already escalating, no second alarm opened',
      at: new Date(T),
    });
  });

  it('system alert: system_alert with its text, about a user or about nobody', async () => {
    const about = envelope('escalation.system_alert.raised.v1', {
      alertId: randomUUID(),
      userId: 3,
      code: 'deadline_repaired',
      details: 'Deadline repaired',
      at: T,
    });
    const general = envelope('escalation.system_alert.raised.v1', {
      alertId: randomUUID(),
      code: 'no_numbers',
      details: 'No emergency numbers',
      at: T,
    });
    expect(await describeOf(about)).toEqual({ userId: 3, type: 'system_alert', details: 'Deadline repaired', at: new Date(T) });
    expect(await describeOf(general)).toEqual({ userId: null, type: 'system_alert', details: 'No emergency numbers', at: new Date(T) });
  });

  it('PIN locked: system_alert with the username from the event and when the lock ends', async () => {
    const e = envelope('identity.pin.locked.v1', { userId: 3, username: 'wendy', lockedUntil: LATER });
    expect(await describeOf(e)).toEqual({
      userId: 3,
      username: 'wendy',
      type: 'system_alert',
      details: 'PIN locked after 5 wrong PINs within 15 minutes; PIN actions are refused until 15:30',
      at: new Date(T),
    });
  });

  it.each([
    ['accepted', 'Called +447911123456: answered and accepted by pressing 1'],
    ['not_accepted', 'Called +447911123456: answered but not accepted (1 was not pressed)'],
    ['no_answer', 'Called +447911123456: no answer'],
    ['busy', 'Called +447911123456: line busy'],
    ['failed', 'Called +447911123456: the call failed'],
    ['canceled', 'Called +447911123456: the call was canceled'],
  ] as const)('call completed %s: call_made "%s"', async (outcome, details) => {
    const e = envelope('notifications.call.completed.v1', {
      messageId: MESSAGE,
      alarmId: ALARM,
      userId: 3,
      to: '+447911123456',
      callSid: 'CA123',
      outcome,
      at: T,
    });
    expect(await describeOf(e)).toEqual({ userId: 3, type: 'call_made', details, at: new Date(T) });
  });

  it.each([
    ['not_accepted', '2-minute check-in reminder call to +447911123456: answered'],
    ['no_answer', '2-minute check-in reminder call to +447911123456: no answer'],
  ] as const)('a keypad reminder call completed %s: "%s", never "1 was not pressed" (it asks for a PIN)', async (outcome, details) => {
    const e = envelope('notifications.call.completed.v1', {
      messageId: MESSAGE,
      userId: 3,
      to: '+447911123456',
      callSid: 'CA123',
      outcome,
      at: T,
      purpose: 'reminder_2min',
    });
    expect(await describeOf(e)).toEqual({ userId: 3, type: 'call_made', details, at: new Date(T) });
  });
});

describe('message updates from notifications', () => {
  type Sent = EventMap['notifications.message.sent.v1'];
  const sent = (over: Partial<Sent>) =>
    envelope('notifications.message.sent.v1', {
      messageId: MESSAGE,
      userId: 3,
      channel: 'sms',
      to: '+447911123456',
      status: 'queued',
      ...over,
    });

  it('the first update of an SMS: sms_sent with the purpose and status', async () => {
    expect(await describeOf(sent({ purpose: 'reminder_5min' }))).toEqual({
      userId: 3,
      type: 'sms_sent',
      details: 'SMS to +447911123456 (5-minute check-in reminder): queued',
      at: new Date(T),
      marks: { messageId: MESSAGE, stages: ['first'] },
    });
  });

  it('a WhatsApp message is sms_sent too', async () => {
    expect(await describeOf(sent({ channel: 'whatsapp', status: 'sent', purpose: 'missed_check_in' }))).toMatchObject({
      type: 'sms_sent',
      details: 'WhatsApp message to +447911123456 (missed check-in alert): sent',
    });
  });

  it('later successful updates of a message already shown add nothing', async () => {
    expect(await describeOf(sent({ status: 'delivered' }), ['first'])).toBeUndefined();
  });

  it('a failure after the first update is shown once, with the provider error', async () => {
    const failed = sent({
      channel: 'whatsapp',
      status: 'failed',
      errorCode: 63005,
      errorMessage: 'Recipient has not opted in',
      purpose: 'emergency',
    });
    expect(await describeOf(failed, ['first'])).toEqual({
      userId: 3,
      type: 'sms_sent',
      details: 'WhatsApp message to +447911123456 (emergency alert) failed: failed (error 63005: Recipient has not opted in)',
      at: new Date(T),
      marks: { messageId: MESSAGE, stages: ['failure'] },
    });
    expect(await describeOf(failed, ['first', 'failure'])).toBeUndefined();
  });

  it('a message that fails at once is one failure entry', async () => {
    expect(await describeOf(sent({ status: 'undelivered', purpose: 'contact_message' }))).toMatchObject({
      type: 'sms_sent',
      details: 'SMS to +447911123456 (message to an emergency contact) failed: undelivered',
      marks: { messageId: MESSAGE, stages: ['first', 'failure'] },
    });
  });

  it('a test SMS about nobody is a system-level entry', async () => {
    expect(await describeOf(sent({ userId: undefined, purpose: 'test' }))).toMatchObject({
      userId: null,
      details: 'SMS to +447911123456 (test message): queued',
    });
  });

  it('a voice message is call_made when the call is placed; its end comes from call completed', async () => {
    expect(await describeOf(sent({ channel: 'voice', status: 'initiated', purpose: 'alarm_call' }))).toMatchObject({
      type: 'call_made',
      details: 'Calling +447911123456 (alarm call): initiated',
    });
    expect(await describeOf(sent({ channel: 'voice', status: 'failed' }), ['first'])).toBeUndefined();
  });

  it('a push shows only when it fails, once', async () => {
    const push = (status: string) => sent({ channel: 'push', to: 'endpoint-1', status, purpose: 'emergency' });
    expect(await describeOf(push('sent'))).toBeUndefined();
    expect(await describeOf(push('failed'))).toMatchObject({
      type: 'system_alert',
      details: 'Push notification (emergency alert) failed: failed',
    });
    expect(await describeOf(push('failed'), ['failure'])).toBeUndefined();
  });
});

describe("changes by the organisation's directory (SCIM)", () => {
  const team = (name: string, monitors: number[] = []) => ({
    id: 4,
    name,
    locationIds: [],
    monitors: monitors.map((userId) => ({ userId })),
    checkInPolicy: { defaultInterval: 60, allowedIntervals: [30, 60] },
    emergencyNumbers: [],
    memberCount: 2,
    version: 3,
    createdAt: T,
    updatedAt: T,
  });

  it('a new account, a move and an update name the directory as the actor, on the person it is about', async () => {
    const created = envelope('identity.user.created.v1', {
      userId: 12,
      username: 'ann@example.org',
      name: 'Ann Smith',
      role: 'worker',
      version: 1,
      teamId: 4,
      directory: 'Entra ID',
    });
    expect(await describeOf(created)).toEqual({
      userId: 12,
      username: 'ann@example.org',
      type: 'system_alert',
      details: "Entra ID (the organisation's directory) created the account of Ann Smith (ann@example.org)",
      at: new Date(T),
    });
    const moved = envelope('identity.user.updated.v1', {
      userId: 12,
      name: 'Ann Smith',
      role: 'worker',
      version: 2,
      teamId: 4,
      movedToTeam: 'North',
      directory: 'Entra ID',
    });
    expect(await describeOf(moved)).toMatchObject({
      userId: 12,
      details: "Entra ID (the organisation's directory) moved Ann Smith to team North",
    });
    const renamed = envelope('identity.user.updated.v1', { userId: 12, name: 'Ann Jones', role: 'worker', version: 3, directory: 'Okta' });
    expect(await describeOf(renamed)).toMatchObject({ details: "Okta (the organisation's directory) updated the account of Ann Jones" });
  });

  it('adds and removes monitors, and creates and deletes teams, on the record of the token creator', async () => {
    const monitors = envelope('identity.team.changed.v1', {
      change: 'updated',
      team: team('North', [7]),
      changedBy: 9,
      directory: 'Entra ID',
      monitorsChanged: { added: [7], removed: [8] },
    });
    expect(await describeOf(monitors)).toEqual({
      userId: 9,
      type: 'system_alert',
      details: "Entra ID (the organisation's directory) added monitor.mo as a monitor and removed user-8 as a monitor of team North",
      at: new Date(T),
    });
    const created = envelope('identity.team.changed.v1', { change: 'created', team: team('South'), changedBy: 9, directory: 'Okta' });
    expect(await describeOf(created)).toMatchObject({ userId: 9, details: "Okta (the organisation's directory) created team South" });
    const deleted = envelope('identity.team.changed.v1', { change: 'deleted', team: team('South'), changedBy: 9, directory: 'Okta' });
    expect(await describeOf(deleted)).toMatchObject({ details: "Okta (the organisation's directory) deleted team South" });
  });

  it('writes nothing for the same events from a person: the screens show those', async () => {
    const byPerson = [
      envelope('identity.user.created.v1', { userId: 12, username: 'ann', name: 'Ann', role: 'worker', version: 1 }),
      envelope('identity.user.updated.v1', { userId: 12, name: 'Ann', role: 'worker', version: 2, movedToTeam: 'North' }),
      envelope('identity.team.changed.v1', { change: 'updated', team: team('North', [7]), changedBy: 9 }),
    ];
    for (const e of byPerson) expect(await describeOf(e)).toBeUndefined();
  });
});
