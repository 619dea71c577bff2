import { connect } from 'nats';
import { JetStreamBus } from '@lws/messaging';
import { createLogger } from '@lws/platform';
import type { TestStack } from './test-stack';

/** A publisher on the test stack's stream, as another service's relay would publish. */
export function connectTestBus(t: TestStack, name: string): Promise<JetStreamBus> {
  return JetStreamBus.connect({
    natsUrl: t.env.NATS_URL!,
    stream: t.env.EVENTS_STREAM!,
    subjectPrefix: t.env.SUBJECT_PREFIX!,
    logger: createLogger('test', 'silent'),
    name,
  });
}

export interface StreamEvent {
  id: string;
  subject: string;
  occurredAt: string;
  producer: string;
  data: Record<string, unknown>;
}

/**
 * Every event on `subject` that reached the test's JetStream stream (a real NATS server), read
 * with a fresh ordered consumer: what any durable consumer of that subject would receive.
 */
export async function streamEvents(t: TestStack, subject: string): Promise<StreamEvent[]> {
  const nc = await connect({ servers: t.env.NATS_URL });
  try {
    const consumer = await nc
      .jetstream()
      .consumers.get(t.env.EVENTS_STREAM!, { filterSubjects: `${t.env.SUBJECT_PREFIX ?? ''}${subject}` });
    const events: StreamEvent[] = [];
    for (;;) {
      const msg = await consumer.next({ expires: 1000 });
      if (!msg) return events;
      events.push(msg.json<StreamEvent>());
    }
  } finally {
    await nc.close();
  }
}
