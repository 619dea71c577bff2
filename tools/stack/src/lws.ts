import { parseArgs } from 'node:util';
import { ConfigError } from '@lws/platform';
import { republish, REPUBLISH_SERVICES, RepublishUsageError } from './republish';

const USAGE = `Usage: npm run lws -- republish --service <${REPUBLISH_SERVICES.join('|')}> --since <date-time> [--until <date-time>]

  Publishes again the events the service's outbox published from --since (inclusive) to --until
  (exclusive; default now), in their original order. Consumers take each event once, so events they
  already have change nothing. Uses DATABASE_URL, NATS_URL, EVENTS_STREAM and SUBJECT_PREFIX.`;

/** Operator commands: `npm run lws -- <command> ...`. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'republish') {
    process.stderr.write(`${command ? `Unknown command: ${command}\n` : ''}${USAGE}\n`);
    return 2;
  }
  let values: { service?: string; since?: string; until?: string };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { service: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' } },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    return 2;
  }
  const { published } = await republish({ service: values.service ?? '', since: values.since ?? '', until: values.until });
  process.stdout.write(`Republished ${published} event${published === 1 ? '' : 's'} of ${values.service}.\n`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const usage = err instanceof ConfigError || err instanceof RepublishUsageError;
    process.stderr.write(`${usage ? err.message : `republish failed: ${err instanceof Error ? err.stack : String(err)}`}\n`);
    process.exit(usage ? 2 : 1);
  },
);
