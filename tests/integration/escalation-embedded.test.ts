import { eventually } from '@lws/testing';
import { startTestStack, XHR, type TestStack } from './support/test-stack';
import { createAccount, superadminOf, type Account } from './support/accounts';

const EMERGENCY_NUMBER = '+447911000009';
const CONTACT = '+447911000011';
const SITE = 'The Prospect Building';
const WAIT_MS = 20_000;

interface Delivery {
  channel: string;
  to: string;
  purpose: string;
  status: string;
  userId?: number | null;
}
interface FakeCall {
  callSid: string;
  to: string;
  status: string;
}
interface Alarm {
  id: string;
  userId: number;
  kind: string;
  state: string;
  history: string[];
}

/**
 * What `npm start` runs (PGlite, the in-process bus, the local fake provider): a missed check-in and an
 * emergency each reach a person. The alarm's call to the emergency number is answered by pressing 1 on
 * the fake provider, as a person would from the SMS Test panel.
 */
describe('escalation on the embedded stack', () => {
  let t: TestStack;
  let superadmin: Account;
  let worker: Account;

  beforeAll(async () => {
    // No acknowledgement window: the alarm calls the emergency number as soon as it opens.
    t = await startTestStack({ embedded: true, env: { EMERGENCY_NUMBER_1: EMERGENCY_NUMBER, ALARM_ACK_TIMEOUT_SECONDS: '0' } });
    superadmin = await superadminOf(t);
    worker = await createAccount(t, superadmin.agent, 'worker');
    // Set up first: the contact reaches escalation through identity's events long before the emergency test.
    await worker.agent
      .post('/api/emergency-contacts')
      .set(XHR)
      .send({ userId: worker.id, name: 'Sam Carer', phone: CONTACT, relation: 'Partner' })
      .expect(201);
    await worker.agent
      .patch(`/api/users/${worker.id}/settings`)
      .set(XHR)
      .send({ primaryContact: CONTACT, checkInInterval: '60' })
      .expect(200);
  }, 300_000);
  afterAll(() => t?.stop());

  const deliveries = async () =>
    (await superadmin.agent.get('/api/notifications/deliveries?limit=200').expect(200)).body.deliveries as Delivery[];
  const calls = async () => (await superadmin.agent.get('/api/test-provider/calls').expect(200)).body.calls as FakeCall[];
  const alarmsOf = async (kind: string) =>
    ((await superadmin.agent.get('/api/alarms').expect(200)).body as Alarm[]).filter((a) => a.userId === worker.id && a.kind === kind);
  const firstAlarm = (kind: string) => eventually(async () => (await alarmsOf(kind))[0], WAIT_MS, 200) as Promise<Alarm>;

  it('a missed check-in texts the worker, calls the emergency number, and the call is accepted by pressing 1', async () => {
    await eventually(
      async () => (await worker.agent.post(`/api/users/${worker.id}/start-shift`).set(XHR).send({ location: SITE })).status === 200,
      WAIT_MS,
      100,
    );
    await superadmin.agent.post(`/api/simulate-check-in-due/${worker.id}`).set(XHR).expect(200);

    const alarm = await firstAlarm('missed_check_in');
    expect(alarm.state).toBe('open');
    await eventually(
      async () => (await deliveries()).some((d) => d.userId === worker.id && d.channel === 'sms' && d.purpose === 'missed_check_in'),
      WAIT_MS,
      200,
    );

    const call = (await eventually(async () => (await calls()).find((c) => c.to === EMERGENCY_NUMBER), WAIT_MS, 200)) as FakeCall;
    await superadmin.agent.post(`/api/test-provider/calls/${call.callSid}/accept`).set(XHR).send({}).expect(200);
    await eventually(
      async () =>
        (await alarmsOf('missed_check_in'))[0].history.some((line) => line.includes(EMERGENCY_NUMBER) && line.includes('accepted')),
      WAIT_MS,
      200,
    );

    await superadmin.agent.post(`/api/alarms/${alarm.id}/acknowledge`).set(XHR).expect(200);
    const resolved = await superadmin.agent
      .post(`/api/alarms/${alarm.id}/resolve`)
      .set(XHR)
      .send({ verdict: 'false_alarm', reason: 'no_signal', note: 'Phone ran out of battery' })
      .expect(200);
    expect(resolved.body).toMatchObject({ state: 'resolved', verdict: 'false_alarm', reason: 'no_signal' });
  }, 90_000);

  it('an emergency calls the primary contact and texts every contact at once', async () => {
    const raised = await worker.agent.post('/api/emergency-call').set(XHR).send({ userId: worker.id, emergency: true }).expect(200);
    expect(raised.body).toMatchObject({ contact: CONTACT, contactName: 'Sam Carer' });

    await firstAlarm('emergency');
    await eventually(async () => (await calls()).some((c) => c.to === CONTACT), WAIT_MS, 200);
    await eventually(
      async () => (await deliveries()).some((d) => d.channel === 'sms' && d.to === CONTACT && d.purpose === 'contact_message'),
      WAIT_MS,
      200,
    );
  }, 90_000);
});
