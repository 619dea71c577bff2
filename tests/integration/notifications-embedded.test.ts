import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { superadminOf } from './support/accounts';

/** Embedded mode: the fake provider starts by itself and the VAPID keys are generated once and kept. */
describe('notifications in embedded mode', () => {
  let t: TestStack;

  beforeAll(async () => {
    t = await startTestStack({ embedded: true });
  }, 300_000);
  afterAll(() => t?.stop());

  it('keeps the push public key across restarts and runs the test provider without a Twilio account', async () => {
    const superadmin = await superadminOf(t);
    const key = (await superadmin.agent.get('/api/push/public-key').expect(200)).text;
    expect(key).toMatch(/^[A-Za-z0-9_-]{80,100}$/);

    const call = await superadmin.agent
      .post('/api/emergency-call')
      .set(XHR)
      .send({ phoneNumber: '+447911123456', workerName: 'Sam', location: 'Depot' })
      .expect(200);
    const ignored = await superadmin.agent.post(`/api/test-provider/calls/${call.body.callSid}/ignore`).set(XHR).send({}).expect(200);
    expect(ignored.body.call).toMatchObject({ callSid: call.body.callSid, status: 'no-answer' });

    await t.restart();
    const again = await superadminOf(t);
    expect((await again.agent.get('/api/push/public-key').expect(200)).text).toBe(key);
    const log = await again.agent.get('/api/notifications/deliveries').expect(200);
    expect(log.body.deliveries.find((d: { providerSid?: string }) => d.providerSid === call.body.callSid)).toMatchObject({
      status: 'no-answer',
    });
  }, 240_000);
});
