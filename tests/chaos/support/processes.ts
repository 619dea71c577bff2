import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

/**
 * Everything a chaos test spawns, so afterAll (and, as a last resort, this process's own exit)
 * can kill it even when the test failed half-way: a stray NATS server or service would hold its
 * port and keep writing into a database the next run reuses the name of.
 */
const spawned = new Set<ChildProcess>();

process.once('exit', () => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

function track(child: ChildProcess): ChildProcess {
  spawned.add(child);
  child.once('exit', () => spawned.delete(child));
  return child;
}

/** Kills every process this file spawned that is still running and waits for each to exit. */
export async function killAllSpawned(): Promise<void> {
  await Promise.all([...spawned].map((child) => killAndWait(child, 'SIGKILL')));
}

async function killAndWait(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/** A TCP port nobody listens on right now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

async function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The last lines a process wrote, for the failure message: a crash must say why. */
class OutputTail {
  private lines: string[] = [];
  constructor(private readonly max = 300) {}
  push(chunk: unknown): void {
    this.lines.push(
      ...String(chunk)
        .split('\n')
        .filter((l) => l.length > 0),
    );
    if (this.lines.length > this.max) this.lines.splice(0, this.lines.length - this.max);
  }
  text(): string {
    return this.lines.join('\n');
  }
}

const NATS_SERVER = process.env.TEST_NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/**
 * A NATS server with JetStream owned by one test file, on a port of its own, so it can be stopped
 * without disturbing the shared server other tests use. Its store directory outlives a stop, so a
 * restart on the same port finds the stream and its consumers as they were.
 */
export class NatsServerProcess {
  private child?: ChildProcess;
  private readonly output = new OutputTail();

  private constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  static async start(): Promise<NatsServerProcess> {
    if (!existsSync(NATS_SERVER)) {
      throw new Error(`the chaos tests run a NATS server of their own: no nats-server at ${NATS_SERVER} (set TEST_NATS_SERVER_BIN)`);
    }
    const server = new NatsServerProcess(await freePort(), mkdtempSync(join(tmpdir(), 'lws-chaos-nats-')));
    await server.start();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) throw new Error('the NATS server is already running');
    const child = track(
      spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    child.stdout!.on('data', (d) => this.output.push(d));
    child.stderr!.on('data', (d) => this.output.push(d));
    this.child = child;
    const started = Date.now();
    while (!(await accepting(this.port))) {
      if (!this.running) throw new Error(`nats-server exited at start:\n${this.output.text()}`);
      if (Date.now() - started > 15_000) throw new Error(`nats-server not accepting on ${this.port} after 15 s:\n${this.output.text()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** SIGTERM is a clean shutdown; SIGKILL is a crash. Either way the port closes. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.child) await killAndWait(this.child, signal);
  }

  /** Stops the server and removes its store. */
  async destroy(): Promise<void> {
    await this.stop('SIGKILL');
    rmSync(this.storeDir, { recursive: true, force: true });
  }

  log(): string {
    return this.output.text();
  }
}

/** Where Debian keeps PostgreSQL's server binaries (the newest installed major), unless TEST_PG_BIN_DIR says. */
function postgresBinDir(): string {
  if (process.env.TEST_PG_BIN_DIR) return process.env.TEST_PG_BIN_DIR;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base)
        .filter((d) => /^\d+$/.test(d))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (majors.length === 0)
    throw new Error(`the chaos tests run a PostgreSQL server of their own: none under ${base} (set TEST_PG_BIN_DIR)`);
  return join(base, majors[0], 'bin');
}

const run = promisify(execFile);

/**
 * A PostgreSQL server owned by one test file, on a port and data directory of its own, so it can
 * be stopped the way a failover or crash stops it without touching the server other tests use.
 * PostgreSQL refuses to run as root, so under root it runs as the postgres user.
 */
export class PostgresServerProcess {
  private readonly bin = postgresBinDir();

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(): Promise<PostgresServerProcess> {
    const server = new PostgresServerProcess(await freePort(), mkdtempSync(join(tmpdir(), 'lws-chaos-pg-')));
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(server.dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await server.as('initdb', ['-D', server.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    await server.start();
    return server;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts (or restarts) the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
    await this.as('pg_ctl', ['-D', this.dataDir, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '60', 'start']);
  }

  /** `immediate` is a crash as PostgreSQL sees it (no checkpoint, every connection cut); `fast` a clean stop. */
  async stop(mode: 'immediate' | 'fast' = 'immediate'): Promise<void> {
    await this.as('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async as(tool: string, args: string[]): Promise<void> {
    const path = join(this.bin, tool);
    const [cmd, argv] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
    try {
      await run(cmd, argv, { cwd: this.dir, timeout: 90_000 });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${tool} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  }
}

const REDIS_SERVER = process.env.TEST_REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

/** A Redis server owned by one test file, on a port of its own, kept in memory only (as a session store may be). */
export class RedisServerProcess {
  private child?: ChildProcess;
  private readonly output = new OutputTail();

  private constructor(readonly port: number) {}

  static async start(): Promise<RedisServerProcess> {
    if (!existsSync(REDIS_SERVER))
      throw new Error(`the chaos tests run a Redis server of their own: no redis-server at ${REDIS_SERVER} (set TEST_REDIS_SERVER_BIN)`);
    const server = new RedisServerProcess(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    const child = track(
      spawn(REDIS_SERVER, ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    child.stdout!.on('data', (d) => this.output.push(d));
    child.stderr!.on('data', (d) => this.output.push(d));
    this.child = child;
    const started = Date.now();
    while (!(await accepting(this.port))) {
      if (!this.running) throw new Error(`redis-server exited at start:\n${this.output.text()}`);
      if (Date.now() - started > 15_000) throw new Error(`redis-server not accepting on ${this.port} after 15 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.child) await killAndWait(this.child, 'SIGKILL');
  }
}

export type ServiceName = 'identity' | 'locations' | 'shifts' | 'escalation' | 'notifications' | 'audit';

const root = join(__dirname, '..', '..', '..');

/**
 * One LWS service as its own OS process, started from its built main exactly as its container
 * runs it, so a kill -9 kills the service and nothing else: no in-process cleanup, no finally
 * block, whatever was in flight is lost the way a crashed pod loses it.
 */
export class ServiceProcess {
  private child?: ChildProcess;
  private readonly output = new OutputTail();
  private readonly counters: { pattern: RegExp; count: number }[] = [];
  /** How many times this service has been started, for naming it in failure messages. */
  private starts = 0;

  private constructor(
    readonly name: string,
    readonly service: ServiceName,
    readonly healthPort: number,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Starts the service and waits until /readyz answers 200. */
  static async start(name: string, service: ServiceName, env: NodeJS.ProcessEnv): Promise<ServiceProcess> {
    const proc = new ServiceProcess(name, service, await freePort(), env);
    await proc.start();
    return proc;
  }

  get url(): string {
    return `http://127.0.0.1:${this.healthPort}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running`);
    this.starts++;
    this.output.push(`---- ${this.name}: start #${this.starts} ----`);
    const child = track(
      spawn(process.execPath, [join(root, 'services', this.service, 'dist', 'main.js')], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'test',
          OTEL_SDK_DISABLED: 'true',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          ...this.env,
          HEALTH_PORT: String(this.healthPort),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        this.output.push(line);
        for (const c of this.counters) if (c.pattern.test(line)) c.count++;
      });
    }
    this.child = child;
    await this.waitReady();
  }

  /** Polls /readyz until 200; fails at once, with the service's output, if the process died. */
  async waitReady(timeoutMs = 45_000): Promise<void> {
    const started = Date.now();
    for (;;) {
      if (!this.running) throw new Error(`${this.name} exited before it was ready:\n${this.log()}`);
      try {
        const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() - started > timeoutMs) throw new Error(`${this.name} not ready after ${timeoutMs} ms:\n${this.log()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** kill -9: the process gets no chance to finish anything. */
  async kill(): Promise<void> {
    if (this.child) await killAndWait(this.child, 'SIGKILL');
    this.output.push(`---- ${this.name}: killed (SIGKILL) ----`);
  }

  /** A clean stop (SIGTERM); the service is expected to exit 0. */
  async stop(): Promise<number | null> {
    if (!this.child || !this.running) return this.child?.exitCode ?? null;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    return code;
  }

  /** Counts, from now on and across restarts, the output lines matching `pattern`. */
  countLines(pattern: RegExp): () => number {
    const counter = { pattern, count: 0 };
    this.counters.push(counter);
    return () => counter.count;
  }

  log(): string {
    return this.output.text();
  }
}
