import { randomUUID } from 'node:crypto';
import type { AnyEventEnvelope } from '@lws/messaging';
import { DELIVERY_PRIORITY } from '../db/schema';
import { feedMessageId, feedMessagesOf, FEED_SUBJECTS, SUBSCRIBABLE_TYPES, withTeam } from './event-catalogue';

const AT = '2026-12-01T10:00:00.000Z';
const envelope = (subject: string, data: Record<string, unknown>): AnyEventEnvelope =>
  ({ id: randomUUID(), subject, occurredAt: AT, producer: 'test', data }) as unknown as AnyEventEnvelope;

const alarm = { alarmId: randomUUID(), userId: 7, teamId: 3 };

describe('which webhook messages an LWS event becomes', () => {
  it('a missed check-in alarm opening is alarm.opened.v1 and checkin.missed.v1, each with its own stable webhook-id', () => {
    const e = envelope('escalation.alarm.opened.v1', { ...alarm, kind: 'missed_check_in', openedAt: AT, dueAt: AT, workerName: 'Sam' });
    const made = feedMessagesOf(e);
    expect(made.map((m) => [m.eventType, m.duress, m.teamId, m.priority])).toEqual([
      ['alarm.opened.v1', false, 3, DELIVERY_PRIORITY.alarm],
      ['checkin.missed.v1', false, 3, DELIVERY_PRIORITY.alarm],
    ]);
    expect(made[0].id).toBe(feedMessageId(e.id, 'alarm.opened.v1'));
    expect(made[0].id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(feedMessagesOf(e).map((m) => m.id)).toEqual(made.map((m) => m.id));
    expect(new Set(made.map((m) => m.id)).size).toBe(2);
    expect(made[0].payload).toEqual({
      type: 'alarm.opened.v1',
      timestamp: AT,
      data: { alarmId: alarm.alarmId, userId: 7, teamId: 3, kind: 'missed_check_in', openedAt: AT, workerName: 'Sam', dueAt: AT },
    });
  });

  it('an emergency is emergency.raised.v1, sent first; a duress one is duress.raised.v1, for endpoints allowed duress only', () => {
    const [plain] = feedMessagesOf(envelope('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: 7, raisedAt: AT }));
    expect([plain.eventType, plain.duress, plain.priority]).toEqual(['emergency.raised.v1', false, DELIVERY_PRIORITY.emergency]);
    const [duress] = feedMessagesOf(
      envelope('shifts.emergency.raised.v1', { emergencyId: randomUUID(), userId: 7, raisedAt: AT, duress: true }),
    );
    expect([duress.eventType, duress.duress]).toEqual(['duress.raised.v1', true]);
    // The duress flag itself is not in the data: the type says it, to those allowed to know.
    expect(duress.payload.data).not.toHaveProperty('duress');
  });

  it("a duress alarm's events, and a worker 'safe' by their duress PIN, are marked duress; the ordinary ones are not", () => {
    const subjects = [
      ['escalation.alarm.opened.v1', { kind: 'emergency', openedAt: AT }],
      ['escalation.alarm.escalated.v1', { step: 1, action: 'notify_monitors', at: AT, details: 'Pushed to monitors' }],
      ['escalation.alarm.acknowledged.v1', { byUserId: 2, at: AT }],
      ['escalation.alarm.resolved.v1', { byUserId: 2, at: AT, verdict: 'genuine', note: 'Found safe' }],
    ] as const;
    for (const [subject, data] of subjects) {
      const [ordinary] = feedMessagesOf(envelope(subject, { ...alarm, ...data }));
      const [silent] = feedMessagesOf(envelope(subject, { ...alarm, ...data, duress: true }));
      expect([subject, ordinary.duress, 'duress' in ordinary.payload.data]).toEqual([subject, false, false]);
      expect([subject, silent.duress, silent.payload.data.duress, silent.priority]).toEqual([
        subject,
        true,
        true,
        DELIVERY_PRIORITY.emergency,
      ]);
    }
    const [safe] = feedMessagesOf(envelope('escalation.alarm.worker_safe.v1', { ...alarm, at: AT }));
    const [unsafe] = feedMessagesOf(envelope('escalation.alarm.worker_safe.v1', { ...alarm, at: AT, underDuress: true }));
    expect([safe.eventType, safe.duress, unsafe.duress, unsafe.payload.data.underDuress]).toEqual(['worker.safe.v1', false, true, true]);
  });

  it("a resolution carries its verdict and note; shifts carry no team until the feed adds the worker's", () => {
    const [resolved] = feedMessagesOf(
      envelope('escalation.alarm.resolved.v1', { ...alarm, byUserId: 2, at: AT, verdict: 'false_alarm', note: 'Phone dropped' }),
    );
    expect(resolved.payload.data).toMatchObject({ verdict: 'false_alarm', note: 'Phone dropped', byUserId: 2 });
    const [started] = feedMessagesOf(
      envelope('shifts.shift.started.v1', { shiftId: randomUUID(), userId: 7, location: 'Depot', startedAt: AT, nextCheckInAt: AT }),
    );
    expect(started.teamId).toBeUndefined();
    expect(withTeam(started, 4)).toMatchObject({ teamId: 4, payload: { data: { userId: 7, teamId: 4, location: 'Depot' } } });
    expect(withTeam(started, undefined)).toBe(started);
  });

  it('every subscribable type comes from a subject the feed consumes', () => {
    const samples: Record<(typeof FEED_SUBJECTS)[number], Record<string, unknown>[]> = {
      'escalation.alarm.opened.v1': [{ ...alarm, kind: 'missed_check_in', openedAt: AT }],
      'escalation.alarm.escalated.v1': [{ ...alarm, step: 0, action: 'notify_worker', at: AT, details: '' }],
      'escalation.alarm.acknowledged.v1': [{ ...alarm, byUserId: 2, at: AT }],
      'escalation.alarm.resolved.v1': [{ ...alarm, byUserId: 2, at: AT, verdict: 'genuine', note: '' }],
      'escalation.alarm.worker_safe.v1': [{ ...alarm, at: AT }],
      'shifts.emergency.raised.v1': [
        { emergencyId: randomUUID(), userId: 7, raisedAt: AT },
        { emergencyId: randomUUID(), userId: 7, raisedAt: AT, duress: true },
      ],
      'shifts.shift.started.v1': [{ shiftId: randomUUID(), userId: 7, location: 'Depot', startedAt: AT, nextCheckInAt: AT }],
      'shifts.shift.ended.v1': [{ shiftId: randomUUID(), userId: 7, endedAt: AT, endedBy: 7, reason: 'worker' }],
    };
    const made = new Set(
      Object.entries(samples).flatMap(([subject, list]) =>
        list.flatMap((data) => feedMessagesOf(envelope(subject, data)).map((m) => m.eventType)),
      ),
    );
    expect([...made].sort()).toEqual([...SUBSCRIBABLE_TYPES].sort());
  });
});
