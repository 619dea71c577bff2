import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { z } from 'zod';
import { JetStreamBus, type AnyEventEnvelope } from '@lws/messaging';
import { baseConfigShape, createLogger, loadConfig } from '@lws/platform';

export const REPUBLISH_SERVICES = ['identity', 'locations', 'shifts', 'escalation', 'notifications', 'audit'] as const;

const argsSchema = z
  .object({
    service: z.enum(REPUBLISH_SERVICES, { errorMap: () => ({ message: `--service must be one of ${REPUBLISH_SERVICES.join(', ')}` }) }),
    since: z.coerce.date({ errorMap: () => ({ message: '--since must be a date and time, e.g. 2026-11-24T10:00Z' }) }),
    until: z.coerce.date({ errorMap: () => ({ message: '--until must be a date and time, e.g. 2026-11-24T11:00Z' }) }).optional(),
  })
  .refine((a) => !a.until || a.until > a.since, { message: '--until must be after --since', path: ['until'] });

export interface RepublishArgs {
  service: string;
  since: string | Date;
  until?: string | Date;
}

/** What the operator asked for cannot be done as asked; the message says what to change. */
export class RepublishUsageError extends Error {}

/**
 * Publishes again, in their original order, the events one service's outbox published in a time
 * range (published rows are kept 8 days). For the day a bus lost messages it had acknowledged (a
 * NATS crash before its fsync): consumers take each event once, by its id, so events they already
 * have change nothing. Needs the servers (DATABASE_URL, NATS_URL); returns how many it published.
 */
export async function republish(input: RepublishArgs, env: NodeJS.ProcessEnv = process.env): Promise<{ published: number }> {
  const parsed = argsSchema.safeParse(input);
  if (!parsed.success) throw new RepublishUsageError(parsed.error.issues.map((i) => i.message).join('; '));
  const args = parsed.data;
  const config = loadConfig(baseConfigShape, env);
  if (!config.DATABASE_URL || !config.NATS_URL)
    throw new RepublishUsageError('republish needs DATABASE_URL and NATS_URL (the embedded mode keeps no bus to publish to)');
  const logger = createLogger('republish', config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL);
  const db = new Client({ connectionString: config.DATABASE_URL, application_name: 'lws-republish' });
  await db.connect();
  const bus = await JetStreamBus.connect({
    natsUrl: config.NATS_URL,
    stream: config.EVENTS_STREAM,
    replicas: config.EVENTS_STREAM_REPLICAS,
    subjectPrefix: config.SUBJECT_PREFIX,
    logger,
    name: 'lws-republish',
  });
  // A fresh JetStream deduplication key per run: a republish must not be dropped as the original's duplicate.
  const run = randomUUID();
  let published = 0;
  try {
    for (let after = -1n; ; ) {
      const { rows } = await db.query<{ seq: string; payload: AnyEventEnvelope }>(
        `select seq::text, payload from "${args.service}".outbox
          where published_at is not null and created_at >= $1 and ($2::timestamptz is null or created_at < $2) and seq > $3
          order by seq limit 500`,
        [args.since, args.until ?? null, after.toString()],
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        await bus.publish(row.payload, { msgId: `${row.payload.id}:republished:${run}` });
        published++;
      }
      after = BigInt(rows[rows.length - 1].seq);
    }
  } finally {
    await bus.close();
    await db.end();
  }
  return { published };
}
