import { connect } from 'nats';
import type { TestStack } from './test-stack';

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
    const consumer = await nc.jetstream().consumers.get(t.env.EVENTS_STREAM!, { filterSubjects: `${t.env.SUBJECT_PREFIX ?? ''}${subject}` });
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
