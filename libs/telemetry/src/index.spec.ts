import { isSecretPath, startTracing } from './index';

describe('startTracing', () => {
  it('stays off unless an OTLP endpoint is configured', async () => {
    const t = startTracing('identity', {});
    expect(t.enabled).toBe(false);
    await t.shutdown();
  });

  it('stays off when OTEL_SDK_DISABLED=true, even with an endpoint', () => {
    expect(startTracing('identity', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }).enabled).toBe(
      false,
    );
  });

  it('starts and shuts down cleanly when an endpoint is configured', async () => {
    const t = startTracing('identity', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' });
    expect(t.enabled).toBe(true);
    await expect(t.shutdown()).resolves.toBeUndefined();
  });
});

describe('isSecretPath', () => {
  it("leaves a calendar feed's address out of traces, and nothing else", () => {
    expect(isSecretPath('/api/on-call/feed/lws_ical_abc')).toBe(true);
    expect(isSecretPath('/api/teams/3/on-call')).toBe(false);
    expect(isSecretPath(undefined)).toBe(false);
  });
});
