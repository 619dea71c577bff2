import { RpcError } from '@lws/messaging';
import { SecretSealer } from './secrets';

describe('SecretSealer: secrets at rest (AES-256-GCM under SECRETS_KEY)', () => {
  const missing = 'SECRETS_KEY must be set';
  const logger = { warn: jest.fn() };

  it('seals so that only the same key opens, and a changed byte is refused', () => {
    const a = SecretSealer.withKey('k'.repeat(40), missing);
    const sealed = a.seal('the-secret', 'secret');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('the-secret');
    expect(a.seal('the-secret', 'secret')).not.toBe(sealed);
    expect(a.open(sealed)).toBe('the-secret');
    expect(SecretSealer.withKey('j'.repeat(40), missing).open(sealed)).toBeUndefined();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(a.open(`v1.${raw.toString('base64url')}`)).toBeUndefined();
  });

  it('in production without SECRETS_KEY seals nothing: storing is refused (409 naming the field) and nothing opens', async () => {
    const localKey = jest.fn(async () => 'generated');
    const none = await SecretSealer.forService({ secretsKey: undefined, production: true, localKey, logger, missing });
    expect(none.canSeal).toBe(false);
    expect(localKey).not.toHaveBeenCalled();
    let thrown: unknown;
    try {
      none.seal('x', 'secret');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RpcError);
    expect(thrown).toMatchObject({ status: 409, field: 'secret', message: missing });
    expect(none.open(SecretSealer.withKey('k'.repeat(40), missing).seal('x', 'secret'))).toBeUndefined();
  });

  it('outside production without SECRETS_KEY seals under the key kept in the database, and says so', async () => {
    const sealer = await SecretSealer.forService({
      secretsKey: undefined,
      production: false,
      localKey: async () => 'kept',
      logger,
      missing,
    });
    expect(SecretSealer.withKey('kept', missing).open(sealer.seal('x', 'secret'))).toBe('x');
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('SECRETS_KEY is not set'));
  });
});
