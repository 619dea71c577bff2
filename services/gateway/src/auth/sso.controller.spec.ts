import type { Request } from 'express';
import { ssoStartQuery, ssoUris } from './sso.controller';
import type { GatewayConfig } from '../config';

describe('single sign-on at the gateway', () => {
  it('lands only on a path of this site after signing in, never on another origin', () => {
    for (const next of ['/worker', '/admin?tab=teams', '/']) expect(ssoStartQuery.safeParse({ next }).success).toBe(true);
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'worker', '']) {
      expect(ssoStartQuery.safeParse({ next }).success).toBe(false);
    }
    expect(ssoStartQuery.safeParse({}).success).toBe(true);
    expect(ssoStartQuery.safeParse({ next: '/worker', other: 1 }).success).toBe(false);
  });

  it("names its addresses from PUBLIC_ORIGIN behind a proxy, else from the request's host", () => {
    const req = { protocol: 'http', get: (h: string) => (h === 'host' ? '10.0.0.5:3000' : undefined) } as unknown as Request;
    expect(ssoUris({ PUBLIC_ORIGIN: 'https://lws.example.org/' } as GatewayConfig, req)).toEqual({
      redirectUri: 'https://lws.example.org/api/auth/sso/callback',
      postLogoutRedirectUri: 'https://lws.example.org/login',
    });
    expect(ssoUris({} as GatewayConfig, req).redirectUri).toBe('http://10.0.0.5:3000/api/auth/sso/callback');
  });
});
