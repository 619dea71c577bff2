import request from 'supertest';
import { startTestStack, XHR, type TestStack } from './support/test-stack';

describe('POST /api/users', () => {
  let t: TestStack;
  let admin: request.Agent;

  beforeAll(async () => {
    t = await startTestStack();
    admin = request.agent(t.url);
    await admin.post('/api/auth/login').set(XHR).send({ username: t.superadmin.username, password: t.superadmin.password }).expect(200);
  }, 120_000);
  afterAll(() => t?.stop());

  const worker = { username: 'Carer.One', password: 'secret1', name: 'Carer One', phone: '44 7911 123 001', role: 'worker' };

  it('creates a worker who can then log in, normalising username and phone', async () => {
    const res = await admin.post('/api/users').set(XHR).send(worker).expect(201);
    // A worker given no team joins the one team of a new deployment, "Default".
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      username: 'carer.one',
      name: 'Carer One',
      role: 'worker',
      phone: '+447911123001',
      teamId: expect.any(Number),
      language: 'en',
    });
    const login = await request(t.url).post('/api/auth/login').set(XHR).send({ username: 'carer.one', password: 'secret1' }).expect(200);
    expect(login.body.role).toBe('worker');
  });

  it('answers 409 with the spec message for a taken username', async () => {
    const res = await admin
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, phone: '+447911123002' })
      .expect(409);
    expect(res.body).toEqual({ message: 'Username already exists. Please choose a different username.', field: 'username' });
  });

  it.each([
    [{ username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [{ password: '12345' }, 'password', 'Password must be at least 6 characters'],
    [{ name: 'A' }, 'name', 'Name must be at least 2 characters'],
    [{ phone: '+44' }, 'phone', 'Phone number must include country code'],
    [{ phone: '+33612345678' }, 'phone', 'Phone should start with +44 for UK format'],
    [{ phone: '+4477009' }, 'phone', 'Phone number must be in format +44 followed by 10 digits'],
    [{ role: 'superadmin' }, 'role', 'Role must be worker or admin'],
  ])('rejects %p naming %s, and writes nothing', async (override, field, message) => {
    const username = `bad${Math.random().toString(36).slice(2, 8)}`;
    const res = await admin
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, username, ...override })
      .expect(400);
    expect(res.body).toEqual({ message, field });
    if (!('username' in override)) {
      await request(t.url).post('/api/auth/login').set(XHR).send({ username, password: worker.password }).expect(401);
    }
  });

  it('accepts snake_case input (medical_info)', async () => {
    const res = await admin
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, username: 'snake.case', phone: '+447911123003', medical_info: 'Asthma' })
      .expect(201);
    expect(res.body.user.username).toBe('snake.case');
  });

  it('is refused to anonymous callers (401) and workers (403)', async () => {
    await request(t.url).post('/api/users').set(XHR).send(worker).expect(401);
    const w = request.agent(t.url);
    await w.post('/api/auth/login').set(XHR).send({ username: 'carer.one', password: 'secret1' }).expect(200);
    await w
      .post('/api/users')
      .set(XHR)
      .send({ ...worker, username: 'sneaky' })
      .expect(403);
  });
});
