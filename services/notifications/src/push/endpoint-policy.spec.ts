import { EndpointPolicy, guardedLookup, isForbiddenAddress, DEFAULT_PUSH_ENDPOINT_HOSTS } from './endpoint-policy';

describe('push endpoint policy (no server-side request forgery)', () => {
  it('forbids loopback, private, link-local (cloud metadata), mapped and reserved addresses, and allows public ones', () => {
    for (const a of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.5',
      '172.16.4.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.1.1.1',
      'not-an-ip',
    ]) {
      expect([a, isForbiddenAddress(a)]).toEqual([a, true]);
    }
    for (const a of ['142.250.180.10', '2a00:1450:4009:81f::200a', '::ffff:8.8.8.8']) {
      expect([a, isForbiddenAddress(a)]).toEqual([a, false]);
    }
  });

  it('stores only https endpoints on an allowed push service host that resolves to public addresses', async () => {
    const policy = new EndpointPolicy({ hosts: `${DEFAULT_PUSH_ENDPOINT_HOSTS},localhost` });
    const refused = async (endpoint: string) => {
      const err = await policy.check(endpoint).then(
        () => undefined,
        (e: { status?: number; field?: string; message: string }) => e,
      );
      return err && { status: err.status, field: err.field, message: err.message };
    };
    expect(await refused('not a url')).toEqual({ status: 400, field: 'endpoint', message: 'endpoint must be a URL' });
    expect(await refused('http://fcm.googleapis.com/fcm/send/x')).toMatchObject({
      status: 400,
      message: 'endpoint must be an https:// URL',
    });
    expect(await refused('http://127.0.0.1:8080/internal/x')).toMatchObject({ status: 400, message: 'endpoint must be an https:// URL' });
    expect(await refused('https://127.0.0.1/x')).toMatchObject({
      status: 400,
      message: 'endpoint must be on a known push service (PUSH_ENDPOINT_HOSTS)',
    });
    expect(await refused('https://169.254.169.254/latest/meta-data')).toMatchObject({ status: 400, field: 'endpoint' });
    expect(await refused('https://evil.example.com/x')).toMatchObject({ status: 400, field: 'endpoint' });
    // A look-alike that only ends with an allowed name's text is not under it.
    expect(await refused('https://evilpush.apple.com.example.net/x')).toMatchObject({ status: 400, field: 'endpoint' });
    expect(await refused('https://user:pw@fcm.googleapis.com/x')).toMatchObject({
      status: 400,
      message: 'endpoint must not carry credentials',
    });
    // On the list, but its name resolves to this machine.
    expect(await refused('https://localhost/x')).toMatchObject({ status: 400, message: 'endpoint must be on a public address' });
    expect(policy.allows(new URL('https://wns2-by3p.notify.windows.com/w/?token=1'))).toBe(true);
    expect(policy.allows(new URL('https://notify.windows.com/x'))).toBe(false);
  });

  it('only the configured fake push service is reachable over http, at exactly its origin', async () => {
    const policy = new EndpointPolicy({ hosts: DEFAULT_PUSH_ENDPOINT_HOSTS, testOrigin: 'http://127.0.0.1:4555' });
    await expect(policy.check('http://127.0.0.1:4555/push/a')).resolves.toBeInstanceOf(URL);
    await expect(policy.check('http://127.0.0.1:4556/push/a')).rejects.toMatchObject({ status: 400 });
    await expect(policy.check('http://localhost:4555/push/a')).rejects.toMatchObject({ status: 400 });
  });

  it('refuses at connect time a name that resolves to a forbidden address (the address used is the one checked)', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.code).toBe('EPUSHADDRESS');
    expect(err?.message).toContain('forbidden address');
  });
});
