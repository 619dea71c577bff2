import { RpcError } from '@lws/messaging';
import { SecretBox } from './secret-box';

const logger = { warn: () => undefined } as never;
const box = async (config: Record<string, unknown>) => {
  const b = new SecretBox({ NODE_ENV: 'production', ...config } as never, {} as never, logger);
  await b.onModuleInit();
  return b;
};

describe('SecretBox: the SSO client secret at rest', () => {
  it('seals so that only the same key opens, and a changed byte is refused', async () => {
    const a = await box({ SECRETS_KEY: 'k'.repeat(40) });
    const sealed = a.seal('the-client-secret', 'clientSecret');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('the-client-secret');
    expect(a.seal('the-client-secret', 'clientSecret')).not.toBe(sealed);
    expect(a.open(sealed)).toBe('the-client-secret');
    expect((await box({ SECRETS_KEY: 'j'.repeat(40) })).open(sealed)).toBeUndefined();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(a.open(`v1.${raw.toString('base64url')}`)).toBeUndefined();
  });

  it('in production without SECRETS_KEY refuses to store a secret, naming the field', async () => {
    const none = await box({});
    let thrown: unknown;
    try {
      none.seal('x', 'clientSecret');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RpcError);
    expect(thrown).toMatchObject({ status: 409 });
  });
});
