import { RpcError } from '@lws/messaging';
import { MINUTES_REQUIRED, requestedDeadline } from './deadline';

describe('requestedDeadline', () => {
  const now = new Date('2030-03-31T09:41:27.350Z');

  it('puts the deadline the given minutes after now, fractions included, 0 being due now', () => {
    expect(requestedDeadline({ mode: 'minutes_until_due', minutesUntilDue: 7 }, now).toISOString()).toBe('2030-03-31T09:48:27.350Z');
    expect(requestedDeadline({ mode: 'minutes_until_due', minutesUntilDue: 0.5 }, now).toISOString()).toBe('2030-03-31T09:41:57.350Z');
    expect(requestedDeadline({ mode: 'minutes_until_due', minutesUntilDue: 0 }, now)).toEqual(now);
    expect(requestedDeadline({ mode: 'minutes_until_due', minutesUntilDue: 1440 }, now).toISOString()).toBe('2030-04-01T09:41:27.350Z');
  });

  it('refuses the minutes mode without minutes, naming the field', () => {
    const call = () => requestedDeadline({ mode: 'minutes_until_due' }, now);
    expect(call).toThrow(RpcError);
    expect(call).toThrow(expect.objectContaining({ status: 400, field: 'minutesUntilDue', message: MINUTES_REQUIRED }));
  });

  it('resets to the top of the next hour, the following one when now is exactly on the hour', () => {
    expect(requestedDeadline({ mode: 'top_of_next_hour' }, now).toISOString()).toBe('2030-03-31T10:00:00.000Z');
    expect(requestedDeadline({ mode: 'top_of_next_hour' }, new Date('2030-03-31T10:00:00.000Z')).toISOString()).toBe(
      '2030-03-31T11:00:00.000Z',
    );
    expect(requestedDeadline({ mode: 'top_of_next_hour' }, new Date('2030-12-31T23:59:59.999Z')).toISOString()).toBe(
      '2031-01-01T00:00:00.000Z',
    );
  });

  it('ignores minutes sent with a reset', () => {
    expect(requestedDeadline({ mode: 'top_of_next_hour', minutesUntilDue: 3 }, now).toISOString()).toBe('2030-03-31T10:00:00.000Z');
  });
});
