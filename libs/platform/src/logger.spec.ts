import { Writable } from 'node:stream';
import { createLogger, NestPinoLogger } from './logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _e, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { lines, stream };
}

describe('createLogger', () => {
  it('writes structured JSON lines naming the service', () => {
    const { lines, stream } = capture();
    createLogger('identity', 'info', stream).info({ userId: 7 }, 'user created');
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({ service: 'identity', userId: 7, msg: 'user created', level: 30 });
  });

  it('redacts passwords, PINs, hashes and session ids wherever they are nested', () => {
    const { lines, stream } = capture();
    createLogger('gateway', 'info', stream).info(
      {
        password: 'hunter22',
        body: { pin: '1234', newPassword: 'Secret99' },
        session: { sessionId: 'abc' },
        user: { passwordHash: '$argon2id$x' },
      },
      'request',
    );
    const out = lines.join('');
    for (const secret of ['hunter22', '1234', 'Secret99', '"abc"', '$argon2id$x']) expect(out).not.toContain(secret);
    expect(out).toContain('[redacted]');
  });

  it('logs an error as type, message, code and stack only, never the objects hanging off it', () => {
    const { lines, stream } = capture();
    const err = Object.assign(new Error('terminating connection'), {
      code: '57P01',
      client: { connectionParameters: { password: 'db-secret', database: 'lws' } },
    });
    createLogger('identity', 'info', stream).error({ err }, 'idle database connection failed');
    const entry = JSON.parse(lines[0]);
    expect(entry.err).toEqual({
      type: 'Error',
      message: 'terminating connection',
      code: '57P01',
      stack: expect.stringContaining('terminating connection'),
    });
    expect(lines[0]).not.toContain('db-secret');
  });

  it('never logs the parameters of a failed query, which can hold hashes', () => {
    const { lines, stream } = capture();
    const logger = createLogger('identity', 'info', stream);
    const err = new Error('Failed query: insert into "identity"."users" ("password_hash") values ($1)\nparams: $argon2id$v=19$secret-hash');
    logger.error({ err }, 'insert failed');
    new NestPinoLogger(logger).error(err.message, err.stack, 'RpcServer');
    const out = lines.join('');
    expect(out).not.toContain('secret-hash');
    expect(out).toContain('params: [redacted]');
    expect(out).toContain('Failed query: insert into');
  });
});
