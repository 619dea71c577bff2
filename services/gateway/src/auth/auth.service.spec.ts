import { HttpException } from '@nestjs/common';
import { RemoteError, type RpcClient } from '@lws/messaging';
import { loadConfig } from '@lws/platform';
import { gatewayConfigShape } from '../config';
import { MemoryCounters } from '../sessions/rate-limiter';
import { MemorySessionStore } from '../sessions/session.store';
import { AuthService } from './auth.service';

const user = { id: 1, username: 'carer', name: 'Carer', role: 'worker', createdAt: new Date().toISOString() };

function setup(env: NodeJS.ProcessEnv) {
  const calls: string[] = [];
  const rpc = {
    send: async (_p: string, req: { username: string; password: string }) => {
      calls.push(req.username);
      if (req.password !== 'right') throw new RemoteError(401, 'Invalid username or password');
      return { user };
    },
  } as unknown as RpcClient;
  const config = loadConfig(gatewayConfigShape, env);
  const service = new AuthService(config, rpc, new MemorySessionStore(), new MemoryCounters());
  return { service, calls };
}

const status = async (p: Promise<unknown>) =>
  p.then(() => 200).catch((e) => (e instanceof HttpException ? e.getStatus() : (e as RemoteError).status));

describe('AuthService login limits', () => {
  it('throttles a username after its failures, without asking identity again', async () => {
    const { service, calls } = setup({ LOGIN_MAX_FAILURES_PER_USERNAME: '2' });
    expect(await status(service.login({ username: 'carer', password: 'x', rememberMe: false }, '10.0.0.1'))).toBe(401);
    expect(await status(service.login({ username: 'carer', password: 'y', rememberMe: false }, '10.0.0.2'))).toBe(401);
    expect(await status(service.login({ username: 'carer', password: 'right', rememberMe: false }, '10.0.0.3'))).toBe(429);
    expect(calls).toHaveLength(2);
    expect(await status(service.login({ username: 'other', password: 'right', rememberMe: false }, '10.0.0.3'))).toBe(200);
  });

  it('throttles one client IP across usernames', async () => {
    const { service } = setup({ LOGIN_MAX_ATTEMPTS_PER_IP: '3' });
    for (const u of ['a', 'b', 'c']) await status(service.login({ username: u, password: 'x', rememberMe: false }, '10.9.9.9'));
    expect(await status(service.login({ username: 'd', password: 'right', rememberMe: false }, '10.9.9.9'))).toBe(429);
    expect(await status(service.login({ username: 'd', password: 'right', rememberMe: false }, '10.9.9.8'))).toBe(200);
  });

  it('a successful login clears the username failures', async () => {
    const { service } = setup({ LOGIN_MAX_FAILURES_PER_USERNAME: '2' });
    await status(service.login({ username: 'carer', password: 'x', rememberMe: false }, '10.0.0.1'));
    expect(await status(service.login({ username: 'carer', password: 'right', rememberMe: false }, '10.0.0.1'))).toBe(200);
    await status(service.login({ username: 'carer', password: 'x', rememberMe: false }, '10.0.0.1'));
    expect(await status(service.login({ username: 'carer', password: 'right', rememberMe: false }, '10.0.0.1'))).toBe(200);
  });
});
