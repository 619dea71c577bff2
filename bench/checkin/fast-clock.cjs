// Preloaded (node -r) into every stack process the check-in benchmark starts on its own (the
// process needs LWS_TEST_CLOCK=1). The process's test clock starts at offset BENCH_CLOCK_BASE_MS;
// each SIGUSR2 starts (or, the next one, stops) it running BENCH_CLOCK_SPEED times faster than
// real time, as the benchmark does in its own process for the one-process layout. The benchmark
// signals every process at once, so they agree on the server time to a few milliseconds of real
// time, and a worker's next press lands more than 5 s (server time) after its last one.
const { join } = require('node:path');
const { testClock } = require(join(__dirname, '..', '..', 'libs/platform/dist/index.js'));

const speed = Number(process.env.BENCH_CLOCK_SPEED);
const base = Number(process.env.BENCH_CLOCK_BASE_MS ?? 0);
if (!(speed >= 1) || !Number.isSafeInteger(base)) throw new Error('fast-clock.cjs needs BENCH_CLOCK_SPEED ≥ 1 and BENCH_CLOCK_BASE_MS');
testClock.setOffsetMs(base);

let timer;
process.on('SIGUSR2', () => {
  if (timer) {
    clearInterval(timer);
    timer = undefined;
    return;
  }
  const from = testClock.offsetMs();
  const t0 = Date.now();
  timer = setInterval(() => testClock.setOffsetMs(Math.round(from + (Date.now() - t0) * (speed - 1))), 10);
  timer.unref();
});
