import {
  COMMAND_PATTERNS,
  Commands,
  ContractError,
  EVENT_SUBJECTS,
  EventSchemas,
  isEventSubject,
  parseCommandReply,
  parseCommandRequest,
  parseEvent,
  Subjects,
} from '@lws/contracts';

const checkIn = {
  checkInId: '3f6c2a9e-8b1d-4c7a-9f2e-1a2b3c4d5e6f',
  shiftId: '9b2e4f10-1c3d-4e5f-8a7b-6c5d4e3f2a1b',
  userId: 7,
  location: 'Depot North',
  checkedInAt: '2025-03-01T09:30:00.000Z',
  nextCheckInAt: '2025-03-01T10:30:00Z',
};

const newUser = {
  username: 'alice',
  password: 'secret1',
  name: 'Alice Smith',
  phone: '+447700900123',
  role: 'worker',
  actorRole: 'admin',
};

/** Runs fn, expects a ContractError and returns it. */
function contractError(fn: () => unknown): ContractError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ContractError) return e;
    throw e;
  }
  throw new Error('expected a ContractError, nothing was thrown');
}

describe('events', () => {
  it('accepts a valid check-in and returns its data', () => {
    expect(parseEvent('shifts.checkin.recorded.v1', checkIn)).toEqual(checkIn);
  });

  it('accepts an event with its optional fields absent', () => {
    const data = { emergencyId: checkIn.checkInId, userId: 3, raisedAt: '2025-03-01T09:30:00Z' };
    expect(parseEvent('shifts.emergency.raised.v1', data)).toEqual(data);
  });

  it('names a missing required field', () => {
    const { userId: _dropped, ...rest } = checkIn;
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', rest));
    expect(err.subject).toBe('shifts.checkin.recorded.v1');
    expect(err.field).toBe('userId');
    expect(err.message).toBe('userId: Required');
  });

  it('rejects a user id of zero', () => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', { ...checkIn, userId: 0 }));
    expect(err.field).toBe('userId');
  });

  it('rejects a non-integer user id', () => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', { ...checkIn, userId: 1.5 }));
    expect(err.field).toBe('userId');
  });

  it('names a field that is not a uuid', () => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', { ...checkIn, shiftId: 'shift-1' }));
    expect(err.field).toBe('shiftId');
    expect(err.message).toMatch(/^shiftId: /);
  });

  it.each(['2025-03-01 09:30:00', '2025-03-01T09:30:00+01:00', 'yesterday'])('rejects the time %j (not ISO-8601 UTC)', (at) => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', { ...checkIn, checkedInAt: at }));
    expect(err.field).toBe('checkedInAt');
  });

  it('rejects a value outside one_of and lists the allowed ones', () => {
    const err = contractError(() =>
      parseEvent('escalation.alarm.opened.v1', { alarmId: checkIn.checkInId, userId: 1, kind: 'fire', openedAt: checkIn.checkedInAt }),
    );
    expect(err.field).toBe('kind');
    expect(err.message).toContain('missed_check_in');
  });

  it('rejects a check-in interval that is not offered', () => {
    const err = contractError(() => parseEvent('identity.settings.changed.v1', { userId: 1, checkInInterval: 45 }));
    expect(err.field).toBe('checkInInterval');
    expect(err.message).toBe('checkInInterval: Number must be one of 30, 50, 60, 120, 240');
    expect(parseEvent('identity.settings.changed.v1', { userId: 1, checkInInterval: 120 })).toEqual({ userId: 1, checkInInterval: 120 });
  });

  it('names an unknown extra field, including a snake_case spelling', () => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', { ...checkIn, user_id: 7 }));
    expect(err.field).toBe('user_id');
    expect(err.message).toBe('user_id: Unknown field');
  });

  it('reports every bad field, not only the first', () => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', { ...checkIn, shiftId: 'x', location: '' }));
    expect(err.issues.map((i) => i.path).sort()).toEqual(['location', 'shiftId']);
  });

  it('rejects data that is not an object', () => {
    const err = contractError(() => parseEvent('shifts.checkin.recorded.v1', 'hello'));
    expect(err.field).toBeUndefined();
    expect(err.issues).toHaveLength(1);
  });

  it('rejects an unknown subject', () => {
    expect(isEventSubject('shifts.checkin.deleted.v1')).toBe(false);
    const err = contractError(() => parseEvent('shifts.checkin.deleted.v1' as never, checkIn));
    expect(err.message).toContain('shifts.checkin.deleted.v1');
  });

  it('has a schema for every subject, and every subject follows <domain>.<entity>.<event>.v<N>', () => {
    expect(EVENT_SUBJECTS.length).toBeGreaterThan(0);
    for (const subject of EVENT_SUBJECTS) {
      expect(subject).toMatch(/^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*\.v[1-9][0-9]*$/);
      expect(isEventSubject(subject)).toBe(true);
      expect(EventSchemas[subject]).toBeDefined();
    }
  });

  it('exposes readable subject constants', () => {
    expect(Subjects.shifts.checkin.recorded).toBe('shifts.checkin.recorded.v1');
    expect(Subjects.escalation.alarm.opened).toBe('escalation.alarm.opened.v1');
  });
});

describe('commands', () => {
  it('validates a create-user request and names a too-short username', () => {
    expect(parseCommandRequest('identity.user.create.v1', newUser)).toEqual(newUser);
    const err = contractError(() => parseCommandRequest('identity.user.create.v1', { ...newUser, username: 'al' }));
    expect(err.field).toBe('username');
    expect(err.message).toBe('username: String must contain at least 3 character(s)');
  });

  it('rejects a phone number that is not E.164', () => {
    const err = contractError(() => parseCommandRequest('identity.user.create.v1', { ...newUser, phone: '07700 900123' }));
    expect(err.field).toBe('phone');
  });

  it('rejects a PIN that is not four digits', () => {
    for (const pin of ['123', '12345', 'abcd']) {
      expect(contractError(() => parseCommandRequest('identity.user.create.v1', { ...newUser, pin })).field).toBe('pin');
    }
    expect(parseCommandRequest('identity.user.create.v1', { ...newUser, pin: '0042' }).pin).toBe('0042');
  });

  it('does not let a worker create users', () => {
    const err = contractError(() => parseCommandRequest('identity.user.create.v1', { ...newUser, actorRole: 'worker' }));
    expect(err.field).toBe('actorRole');
  });

  it('validates replies, naming nested fields by their path', () => {
    const user = {
      id: 1,
      username: 'alice',
      name: 'Alice',
      role: 'worker',
      createdAt: '2025-03-01T09:30:00Z',
      pinSet: true,
      passwordIsTemporary: false,
    };
    expect(parseCommandReply('identity.auth.verify_password.v1', { user })).toEqual({ user });
    const err = contractError(() => parseCommandReply('identity.auth.verify_password.v1', { user: { ...user, id: -1 } }));
    expect(err.field).toBe('user.id');
    const extra = contractError(() => parseCommandReply('identity.user.get.v1', { user: { ...user, passwordHash: 'x' } }));
    expect(extra.field).toBe('user.passwordHash');
  });

  it('has a ping command for every service', () => {
    for (const svc of ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit']) {
      expect(COMMAND_PATTERNS).toContain(`${svc}.system.ping.v1`);
    }
    expect(parseCommandReply('audit.system.ping.v1', { service: 'audit', ready: true, version: '0.1.0' }).ready).toBe(true);
    expect(Commands.identity.auth.verifyPassword).toBe('identity.auth.verify_password.v1');
  });
});
