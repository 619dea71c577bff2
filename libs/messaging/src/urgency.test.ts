import { randomUUID } from 'node:crypto';
import { EventSubject } from '@lws/contracts';
import { eventually, testServers, uniqueId } from '@lws/testing';
import { AnyEventEnvelope } from './envelope';
import { JetStreamBus } from './jetstream-bus';
import { deleteStream, recordingLogger, userCreated } from './testing/support';
import { urgency, URGENCY_LINGER_MS, URGENCY_MAX_HOLD_MS } from './urgency';

const CREATED: EventSubject = 'identity.user.created.v1';
const RAISED: EventSubject = 'shifts.emergency.raised.v1';

/**
 * The process's gate on a real JetStream: while an emergency's event is being handled, a consumer
 * of ordinary events starts no new batch (the thread runs the emergency's work next), and it goes
 * on once the emergency's work has ended, or after the longest hold.
 */
describe('Urgency on JetStream consumers', () => {
  let prefix: string;
  let stream: string;
  let bus: JetStreamBus;
  const stops: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    prefix = `${uniqueId()}.`;
    stream = uniqueId('LWS_T_');
    bus = await JetStreamBus.connect({
      natsUrl: testServers.natsUrl,
      stream,
      subjectPrefix: prefix,
      logger: recordingLogger(),
      name: 'urgency-spec',
      ackWaitMs: 5000,
    });
  });

  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await bus.close();
    await deleteStream(stream);
  });

  const envelope = (subject: EventSubject, data: unknown): AnyEventEnvelope =>
    ({ id: randomUUID(), subject, occurredAt: new Date().toISOString(), producer: 'spec', data }) as AnyEventEnvelope;

  it("an ordinary consumer's batch waits while an emergency's event is handled, and starts once it has ended", async () => {
    let releaseEmergency!: () => void;
    const emergencyHeld = new Promise<void>((resolve) => (releaseEmergency = resolve));
    let emergencyStarted = 0;
    let emergencyEnded = 0;
    const bulkStarted: number[] = [];

    const urgent = await bus.consume({
      durable: 'urgent-spec',
      subjects: [RAISED],
      handler: async () => {
        emergencyStarted = performance.now();
        await emergencyHeld;
        emergencyEnded = performance.now();
      },
    });
    stops.push(() => urgent.stop());
    const bulk = await bus.consume({
      durable: 'bulk-spec',
      subjects: [CREATED],
      handler: async () => {
        bulkStarted.push(performance.now());
      },
      batchHandler: async (messages) => {
        bulkStarted.push(performance.now());
        return messages.map((): PromiseSettledResult<void> => ({ status: 'fulfilled', value: undefined }));
      },
    });
    stops.push(() => bulk.stop());

    await bus.publish(envelope(RAISED, { emergencyId: randomUUID(), userId: 7, raisedAt: new Date().toISOString() }));
    await eventually(() => emergencyStarted > 0);
    expect(urgency.shut).toBe(true);
    const heldBefore = urgency.heldMs;
    // A flood's event arrives while the emergency is being handled: its batch does not start.
    await bus.publish(envelope(CREATED, userCreated(1)));
    await new Promise((r) => setTimeout(r, 200));
    expect(bulkStarted).toEqual([]);

    releaseEmergency();
    await eventually(() => bulkStarted.length === 1);
    // It went on after the emergency's work, at most the longest hold after it was pulled.
    expect(bulkStarted[0]).toBeGreaterThanOrEqual(emergencyEnded);
    expect(bulkStarted[0] - emergencyStarted).toBeLessThan(URGENCY_MAX_HOLD_MS + URGENCY_LINGER_MS + 1000);
    expect(urgency.heldMs).toBeGreaterThan(heldBefore);
  });

  it('with no emergency under way, an ordinary batch is never held', async () => {
    await eventually(() => !urgency.shut);
    const heldBefore = urgency.heldMs;
    const handled: string[] = [];
    const bulk = await bus.consume({
      durable: 'bulk-only-spec',
      subjects: [CREATED],
      handler: async () => undefined,
      batchHandler: async (messages) => {
        handled.push(...messages.map((m) => (m.data as { id: string }).id));
        return messages.map((): PromiseSettledResult<void> => ({ status: 'fulfilled', value: undefined }));
      },
    });
    stops.push(() => bulk.stop());
    const events = [1, 2, 3].map((u) => envelope(CREATED, userCreated(u)));
    for (const e of events) await bus.publish(e);
    await eventually(() => handled.length === 3);
    expect(urgency.heldMs).toBe(heldBefore);
  });
});
