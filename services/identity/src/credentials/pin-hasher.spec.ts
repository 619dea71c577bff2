import { ConfigError, type Db, type Logger } from '@lws/platform';
import { PinHasher } from './pin-hasher';

const logger = { warn: () => undefined } as unknown as Logger;
const noDatabase = new Proxy(
  {},
  {
    get: () => {
      throw new Error('the database must not be used');
    },
  },
) as Db;
const KEY = 'k'.repeat(32);

describe('PinHasher', () => {
  it('refuses to start in production without PIN_HASH_KEY, naming it', async () => {
    const hasher = new PinHasher({ NODE_ENV: 'production' } as never, noDatabase, logger);
    const err = await hasher.onModuleInit().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toContain('PIN_HASH_KEY');
  });

  it('hashes with the configured key: deterministic, keyed, never the PIN itself', async () => {
    const a = new PinHasher({ NODE_ENV: 'production', PIN_HASH_KEY: KEY } as never, noDatabase, logger);
    const b = new PinHasher({ NODE_ENV: 'production', PIN_HASH_KEY: 'z'.repeat(32) } as never, noDatabase, logger);
    await a.onModuleInit();
    await b.onModuleInit();
    expect(a.hash('1234')).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash('1234')).toBe(a.hash('1234'));
    expect(a.hash('1234')).not.toBe(a.hash('1235'));
    expect(a.hash('1234')).not.toBe(b.hash('1234'));
    expect(a.matches(a.hash('0007'), '0007')).toBe(true);
    expect(a.matches(a.hash('0007'), '0070')).toBe(false);
  });

  it('draws 4-digit PINs, leading zeros included', async () => {
    const hasher = new PinHasher({ PIN_HASH_KEY: KEY } as never, noDatabase, logger);
    const pins = Array.from({ length: 2000 }, () => hasher.randomPin());
    expect(pins.every((p) => /^\d{4}$/.test(p))).toBe(true);
    expect(pins.some((p) => p.startsWith('0'))).toBe(true);
  });
});
