import { describe, expect, it } from '@jest/globals';
import { parseAlarmMessage, parseAlarmMessages, parseAlarmThread } from './alarm-thread-api';
import { parseAlarm } from './alarms-api';

const message = (over: object = {}) => ({
  id: 'm1',
  from: 'monitor',
  byName: 'Ada Min',
  text: 'Are you OK?',
  at: '2026-11-28T10:00:00.000Z',
  seenAt: null,
  ...over,
});

describe('parseAlarmMessage', () => {
  it('reads a message as the server sends it', () => {
    expect(parseAlarmMessage(message())).toEqual(message());
    expect(parseAlarmMessage(message({ from: 'worker', byName: null, seenAt: '2026-11-28T10:01:00.000Z' }))).toEqual(
      message({ from: 'worker', byName: null, seenAt: '2026-11-28T10:01:00.000Z' }),
    );
    expect(parseAlarmMessage(message({ id: 12 }))?.id).toBe('12');
  });

  it.each([
    ['no id', { id: '' }],
    ['a sender it does not know', { from: 'system' }],
    ['no sender', { from: undefined }],
    ['no text', { text: '' }],
    ['text that is not text', { text: 42 }],
    ['a time that is not one', { at: 'ten o clock' }],
  ])('refuses a message with %s', (_why, over) => {
    expect(parseAlarmMessage(message(over))).toBeNull();
  });

  it('reads a seen time that is not one as not seen', () => {
    expect(parseAlarmMessage(message({ seenAt: 'yes' }))?.seenAt).toBeNull();
  });
});

describe('parseAlarmMessages', () => {
  it('keeps the order and leaves out what it cannot show', () => {
    const list = [message({ id: 'm1' }), message({ id: 'm2', from: 'nobody' }), message({ id: 'm3', from: 'worker' }), 'hello'];
    expect(parseAlarmMessages(list).map((m) => m.id)).toEqual(['m1', 'm3']);
  });

  it('reads no list as no messages', () => {
    expect(parseAlarmMessages(undefined)).toEqual([]);
    expect(parseAlarmMessages({ m1: message() })).toEqual([]);
  });
});

describe('the messages of an alarm in the monitors’ list', () => {
  const alarm = (over: object = {}) => ({ id: 'a1', userId: 7, workerName: 'Ann Lone', kind: 'emergency', state: 'open', ...over });

  it('reads them, and an alarm without them as having none', () => {
    expect(parseAlarm(alarm({ messages: [message()] }))?.messages).toEqual([message()]);
    expect(parseAlarm(alarm())?.messages).toEqual([]);
  });

  it('keeps the alarm when a message is malformed, without that message', () => {
    const parsed = parseAlarm(alarm({ messages: [message({ from: 'worker', at: null }), message({ id: 'm2' })] }));
    expect(parsed?.id).toBe('a1');
    expect(parsed?.messages.map((m) => m.id)).toEqual(['m2']);
  });
});

describe('parseAlarmThread', () => {
  const thread = { alarmId: 'a1', kind: 'missed_check_in', messages: [message()] };

  it('reads the thread, or none', () => {
    expect(parseAlarmThread({ thread })).toEqual(thread);
    expect(parseAlarmThread({ thread: { ...thread, alarmId: 5 } })?.alarmId).toBe('5');
    expect(parseAlarmThread({ thread: null })).toBeNull();
  });

  it('leaves out a message it cannot show', () => {
    expect(parseAlarmThread({ thread: { ...thread, messages: [message({ from: 'x' }), message({ id: 'm2' })] } })?.messages).toEqual([
      message({ id: 'm2' }),
    ]);
  });

  it.each([
    ['no answer', undefined],
    ['no thread field', {}],
    ['a thread without an alarm', { thread: { ...thread, alarmId: '' } }],
    ['a thread of a kind it does not know', { thread: { ...thread, kind: 'flood' } }],
    ['a thread without a list of messages', { thread: { ...thread, messages: null } }],
    ['a list', [thread]],
  ])('refuses %s rather than read it as no thread', (_why, body) => {
    expect(() => parseAlarmThread(body)).toThrow('Invalid response from server');
  });
});
