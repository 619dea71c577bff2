import { SchedulerRegistry } from '@nestjs/schedule';
import { Chores } from './chores';
import { metricsRegistry } from './metrics';

// The periodic chores: kept in Nest's scheduler registry, one round at a time, a
// failure counted and retried at the next period, and stopped only once a round under way ends.

const PERIOD = 1000;

function logger() {
  const lines: { level: string; msg: string }[] = [];
  const log = (level: string) => (_o: unknown, msg: string) => void lines.push({ level, msg });
  const l = { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug'), child: () => l };
  return { lines, logger: l as never };
}

async function runs(chore: string, outcome: 'ok' | 'failed'): Promise<number> {
  const metric = (await metricsRegistry.getSingleMetric('lws_chore_runs_total')?.get())?.values ?? [];
  return metric.find((v) => v.labels.chore === chore && v.labels.outcome === outcome && v.labels.service === 'test')?.value ?? 0;
}

describe('chores', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('are listed in the scheduler registry, and never overlap a slow round', async () => {
    const registry = new SchedulerRegistry();
    const chores = new Chores('test', registry, logger().logger);
    let started = 0;
    let finish!: () => void;
    chores.every('slow', PERIOD, () => {
      started++;
      return new Promise<void>((r) => (finish = r));
    });
    expect(registry.getIntervals()).toEqual(['test:slow']);
    await jest.advanceTimersByTimeAsync(5 * PERIOD);
    expect(started).toBe(1);
    finish();
    await jest.advanceTimersByTimeAsync(PERIOD);
    expect(started).toBe(2);
    finish();
    await chores.stop();
  });

  it('count a failed round, say so once per outage, and try again at the next period until it works', async () => {
    const { lines, logger: log } = logger();
    const chores = new Chores('test', new SchedulerRegistry(), log);
    let fail = true;
    const before = { failed: await runs('flaky', 'failed'), ok: await runs('flaky', 'ok') };
    chores.every('flaky', PERIOD, async () => {
      if (fail) throw new Error('database down');
    });
    await jest.advanceTimersByTimeAsync(3 * PERIOD);
    expect((await runs('flaky', 'failed')) - before.failed).toBe(3);
    expect(lines.filter((l) => l.level === 'error')).toEqual([{ level: 'error', msg: 'flaky failed; retrying until it works' }]);
    fail = false;
    await jest.advanceTimersByTimeAsync(PERIOD);
    expect((await runs('flaky', 'ok')) - before.ok).toBe(1);
    expect(lines.at(-1)).toEqual({ level: 'info', msg: 'flaky works again' });
    await chores.stop();
  });

  it('run at once when asked, and stop only once the round under way has ended', async () => {
    const registry = new SchedulerRegistry();
    const chores = new Chores('test', registry, logger().logger);
    let finish!: () => void;
    let done = false;
    chores.every(
      'purge',
      60 * PERIOD,
      () =>
        new Promise<void>((r) => {
          finish = () => {
            done = true;
            r();
          };
        }),
      { runNow: true },
    );
    let stopped = false;
    const stopping = chores.stop().then(() => (stopped = true));
    expect(registry.getIntervals()).toEqual([]);
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(done).toBe(true);
  });
});
