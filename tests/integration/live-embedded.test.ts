import request from 'supertest';
import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { openStream, sessionCookie, type SseStream } from './support/sse-client';

/** The live stream in embedded mode: fed by the in-process bus, sessions in memory. */
describe('live updates in embedded mode (in-process bus)', () => {
  let t: TestStack;
  const streams: SseStream[] = [];

  beforeAll(async () => {
    t = await startTestStack({ embedded: true });
  }, 300_000);
  afterAll(async () => {
    for (const s of streams) s.close();
    await t?.stop();
  });

  it("streams a worker's shift and check-in to its own screen and to a monitor, and resumes after a reconnect", async () => {
    const adminCookie = await sessionCookie(t.url, t.superadmin.username, t.superadmin.password);
    const monitor = await openStream(t.url, { cookie: adminCookie });
    streams.push(monitor);
    await monitor.waitFor((e) => e.event === 'ready');

    const created = await request(t.url)
      .post('/api/users')
      .set(XHR)
      .set('Cookie', adminCookie)
      .send({ username: 'emb.live', password: 'secret1', name: 'Embedded Live', phone: '+447911123499', role: 'worker' })
      .expect(201);
    const id = created.body.user.id as number;
    await monitor.waitFor((e) => e.event === 'account' && JSON.parse(e.data).userId === id);

    const cookie = await sessionCookie(t.url, 'emb.live', 'secret1');
    const own = await openStream(t.url, { cookie });
    streams.push(own);
    const ready = await own.waitFor((e) => e.event === 'ready');
    await eventually(
      async () =>
        (
          await request(t.url)
            .post(`/api/users/${id}/start-shift`)
            .set(XHR)
            .set('Cookie', cookie)
            .send({ location: 'The Prospect Building' })
        ).status === 200,
      30_000,
      100,
    );
    const started = await own.waitFor((e) => e.event === 'worker' && JSON.parse(e.data).change === 'shift_started');
    expect(JSON.parse(started.data)).toMatchObject({ userId: id, location: 'The Prospect Building', nextCheckInTime: expect.any(String) });
    await monitor.waitFor((e) => e.id === started.id);
    own.close();

    const sentAt = Date.now();
    await request(t.url)
      .post('/api/check-ins')
      .set(XHR)
      .set('Cookie', cookie)
      .send({ userId: id, pin: created.body.generatedPin })
      .expect(201);
    const seen = await monitor.waitFor((e) => e.event === 'worker' && JSON.parse(e.data).change === 'checked_in', 1000);
    expect(seen.at - sentAt).toBeLessThan(1000);

    const resumed = await openStream(t.url, { cookie, lastEventId: ready.id });
    streams.push(resumed);
    await resumed.waitFor((e) => e.id === seen.id);
    expect(resumed.events.map((e) => `${e.event}:${JSON.parse(e.data).change}`)).toEqual(['worker:shift_started', 'worker:checked_in']);
  }, 180_000);
});
