import { z } from 'zod';
import { baseConfigShape, ConfigError, healthPortShape, loadConfig } from './config';

const shape = { ...baseConfigShape, ...healthPortShape(8081), EXTRA: z.coerce.number().int().min(1).default(5) };

describe('loadConfig', () => {
  it('applies the embedded defaults when nothing is set', () => {
    const c = loadConfig(shape, {});
    expect(c).toMatchObject({
      HOST: '127.0.0.1',
      HEALTH_PORT: 8081,
      DATA_DIR: '.data',
      EVENTS_STREAM: 'LWS_EVENTS',
      SUBJECT_PREFIX: '',
      EXTRA: 5,
    });
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.NATS_URL).toBeUndefined();
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig(shape, { DATABASE_URL: '', HEALTH_PORT: '' }).HEALTH_PORT).toBe(8081);
  });

  it.each([
    ['HEALTH_PORT', 'eighty'],
    ['HEALTH_PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['NATS_URL', 'http://127.0.0.1:4222'],
    ['LOG_LEVEL', 'loud'],
    ['SUBJECT_PREFIX', 'Upper.'],
    ['EXTRA', '0'],
  ])('stops on a bad %s with a message naming it', (variable, value) => {
    let error: unknown;
    try {
      loadConfig(shape, { [variable]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(`${variable}:`);
    expect((error as ConfigError).problems.map((p) => p.variable)).toEqual([variable]);
  });

  it('accepts a NATS cluster list and a postgres URL', () => {
    const c = loadConfig(shape, { NATS_URL: 'nats://a:4222,nats://b:4222', DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(c.NATS_URL).toBe('nats://a:4222,nats://b:4222');
  });
});

describe('LWS_TEST_CLOCK', () => {
  it('is off unless set to 1', () => {
    expect(loadConfig(shape, {}).LWS_TEST_CLOCK).toBe(false);
    expect(loadConfig(shape, { LWS_TEST_CLOCK: '0' }).LWS_TEST_CLOCK).toBe(false);
    expect(loadConfig(shape, { LWS_TEST_CLOCK: '1', NODE_ENV: 'test' }).LWS_TEST_CLOCK).toBe(true);
  });

  it.each([['true'], ['yes'], ['2']])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig(shape, { LWS_TEST_CLOCK: value })).toThrow(/LWS_TEST_CLOCK: must be 1 \(test clock on\) or 0/);
  });

  it('stops a production process that has the test clock on', () => {
    let error: unknown;
    try {
      loadConfig(shape, { LWS_TEST_CLOCK: '1', NODE_ENV: 'production' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      { variable: 'LWS_TEST_CLOCK', message: 'the test clock cannot be enabled when NODE_ENV=production' },
    ]);
  });
});
