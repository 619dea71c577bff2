import request from 'supertest';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

describe('embedded mode (PGlite, in-process bus, in-memory sessions)', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ embedded: true, env: { LWS_SUPERADMIN_PASSWORD: '' } });
  }, 120_000);
  afterAll(() => t?.stop());

  it('generates a superadmin password, shows it once, and it logs in end to end', async () => {
    expect(t.announcements).toHaveLength(1);
    const m = /Username: superadmin {2}Password: (\S+)/.exec(t.announcements[0]);
    expect(m).not.toBeNull();
    const password = m![1];
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(t.logs.join('')).not.toContain(password);

    const agent = request.agent(t.url);
    await agent.post('/api/auth/login').set(XHR).send({ username: 'superadmin', password }).expect(200);
    const status = await agent.get('/api/system/status').expect(200);
    expect(status.body.allReady).toBe(true);

    await t.restart();
    expect(t.announcements).toHaveLength(1);
    await request(t.url).post('/api/auth/login').set(XHR).send({ username: 'superadmin', password }).expect(200);
  });
});
