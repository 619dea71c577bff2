import { randomUUID } from 'node:crypto';
import { eventually, testServers, uniqueId } from '@lws/testing';
import { AnyEventEnvelope } from './envelope';
import { TailHandle, TailMessage } from './event-tail';
import { InProcessBus } from './in-process-bus';
import { JetStreamBus } from './jetstream-bus';
import { deleteStream, recordingLogger, userCreated } from './testing/support';

const CREATED = 'identity.user.created.v1';
const DELETED = 'identity.user.deleted.v1';

function envelope(subject: string, data: unknown): AnyEventEnvelope {
  return { id: randomUUID(), subject, occurredAt: new Date().toISOString(), producer: 'spec', data } as AnyEventEnvelope;
}
const created = (userId: number) => envelope(CREATED, userCreated(userId));
const deleted = (userId: number) => envelope(DELETED, { userId, deletedBy: 1 });
const location = () => envelope('locations.location.created.v1', { locationId: 1, name: 'Somewhere' });

/** Waits until the expectation holds. */
const until = (assertion: () => void) =>
  eventually(() => {
    assertion();
    return true;
  });

type Bus = (InProcessBus | JetStreamBus) & { close(): Promise<void> };

describe.each([
  ['InProcessBus', 'in-process'],
  ['JetStreamBus', 'jetstream'],
] as const)('tail on the %s', (_name, kind) => {
  let bus: Bus;
  let stream: string;
  const tails: TailHandle[] = [];

  beforeEach(async () => {
    const logger = recordingLogger();
    stream = uniqueId('LWS_T_');
    bus =
      kind === 'in-process'
        ? new InProcessBus({ logger })
        : await JetStreamBus.connect({
            natsUrl: testServers.natsUrl,
            stream,
            subjectPrefix: `${uniqueId()}.`,
            logger,
            name: 'event-tail-spec',
          });
  });

  afterEach(async () => {
    for (const t of tails.splice(0)) await t.stop();
    await bus.close();
    if (kind === 'jetstream') await deleteStream(stream);
  });

  async function tail(subjects: string[], fromSequence?: number) {
    const got: TailMessage[] = [];
    const handle = await bus.tail({ subjects, fromSequence, handler: (m) => got.push(m) });
    tails.push(handle);
    return { got, handle };
  }

  it('delivers only events published after it started, of its subjects, in order, with increasing sequences', async () => {
    await bus.publish(created(1));
    const { got, handle } = await tail(['identity.user.*.v1']);
    await bus.publish(created(2));
    await bus.publish(location());
    await bus.publish(deleted(2));
    await until(() => expect(got.map((m) => m.subject)).toEqual([CREATED, DELETED]));
    expect(got.map((m) => (m.data as { data: { userId: number } }).data.userId)).toEqual([2, 2]);
    expect(got[0].sequence).toBe(handle.startSequence);
    expect(got[1].sequence).toBe(handle.startSequence + 2);
  });

  it('gives two tails the same sequences and epoch, and replays from a sequence still stored', async () => {
    const first = await tail(['identity.>']);
    for (const id of [1, 2, 3]) await bus.publish(created(id));
    await until(() => expect(first.got).toHaveLength(3));
    const second = await tail(['identity.>'], first.got[1].sequence);
    await bus.publish(created(4));
    await until(() => expect(second.got).toHaveLength(3));
    expect(second.handle.epoch).toBe(first.handle.epoch);
    await until(() => expect(first.got).toHaveLength(4));
    expect(second.got.map((m) => m.sequence)).toEqual(first.got.slice(1).map((m) => m.sequence));
  });

  it('stops delivering after stop()', async () => {
    const { got, handle } = await tail([CREATED]);
    await bus.publish(created(1));
    await until(() => expect(got).toHaveLength(1));
    await handle.stop();
    await bus.publish(created(2));
    const { got: other } = await tail([CREATED], 1);
    await until(() => expect(other).toHaveLength(2));
    expect(got).toHaveLength(1);
  });
});

describe('tail epochs', () => {
  it('differ between two in-process buses, whose sequences both start at 1', async () => {
    const a = new InProcessBus({ logger: recordingLogger() });
    const b = new InProcessBus({ logger: recordingLogger() });
    const ta = await a.tail({ subjects: ['>'], handler: () => undefined });
    const tb = await b.tail({ subjects: ['>'], handler: () => undefined });
    expect(ta.startSequence).toBe(1);
    expect(tb.startSequence).toBe(1);
    expect(ta.epoch).not.toBe(tb.epoch);
    await a.close();
    await b.close();
  });

  it('rejects a tail without subjects', async () => {
    const bus = new InProcessBus({ logger: recordingLogger() });
    await expect(bus.tail({ subjects: [], handler: () => undefined })).rejects.toThrow('at least one subject');
    await bus.close();
  });
});
