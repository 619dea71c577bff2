import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const REPO = path.resolve(__dirname, '../../..');
const GEN = path.join(REPO, 'tools/gen-contracts/gen.mjs');

let work: string;
let protoDir: string;
let outDir: string;

beforeEach(() => {
  work = mkdtempSync(path.join(tmpdir(), 'lws-gen-contracts-'));
  protoDir = path.join(work, 'proto');
  outDir = path.join(work, 'src');
  mkdirSync(path.join(protoDir, 'lws'), { recursive: true });
  copyFileSync(path.join(REPO, 'proto/lws/options.proto'), path.join(protoDir, 'lws/options.proto'));
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

function writeProto(name: string, body: string): void {
  writeFileSync(path.join(protoDir, name), `syntax = "proto3";\npackage lws.test;\nimport "lws/options.proto";\n${body}\n`);
}

function gen() {
  const run = spawnSync(process.execPath, [GEN, '--proto', protoDir, '--out', outDir], { encoding: 'utf8' });
  return { code: run.status, stderr: run.stderr };
}

const event = (name: string, subject: string) =>
  `message ${name} {\n  option (lws.subject) = "${subject}";\n  int32 user_id = 1 [(lws.rules).min = 1];\n}\n`;

describe('gen-contracts', () => {
  it('generates a registry with the latest version of each subject behind its constant', () => {
    writeProto(
      'shifts.proto',
      event('CheckInRecordedV1', 'shifts.checkin.recorded.v1') + event('CheckInRecordedV2', 'shifts.checkin.recorded.v2'),
    );
    expect(gen()).toEqual({ code: 0, stderr: '' });
    const registry = readFileSync(path.join(outDir, 'generated/registry.ts'), 'utf8');
    expect(registry.startsWith('// generated from proto/ by tools/gen-contracts — do not edit')).toBe(true);
    expect(registry).toContain("'shifts.checkin.recorded.v1': CheckInRecordedV1;");
    expect(registry).toContain("recorded: 'shifts.checkin.recorded.v2',");
    expect(readFileSync(path.join(outDir, 'index.ts'), 'utf8')).toContain("export * from './generated/messages/shifts';");
  });

  it('produces identical output on a second run and drops files of removed protos', () => {
    writeProto('a.proto', event('AEventV1', 'test.a.happened.v1'));
    writeProto('b.proto', event('BEventV1', 'test.b.happened.v1'));
    expect(gen().code).toBe(0);
    const first = readFileSync(path.join(outDir, 'generated/registry.ts'), 'utf8');
    expect(gen().code).toBe(0);
    expect(readFileSync(path.join(outDir, 'generated/registry.ts'), 'utf8')).toBe(first);

    rmSync(path.join(protoDir, 'b.proto'));
    expect(gen().code).toBe(0);
    expect(existsSync(path.join(outDir, 'generated/messages/b.ts'))).toBe(false);
    expect(existsSync(path.join(outDir, 'generated/messages/a.ts'))).toBe(true);
  });

  it.each([
    'Shifts.checkin.recorded.v1',
    'shifts.checkin.recorded',
    'shifts.recorded.v1',
    'shifts.check-in.recorded.v1',
    'shifts._checkin.recorded.v1',
    'shifts.checkin.recorded.v0',
  ])('rejects the subject %j', (subject) => {
    writeProto('shifts.proto', event('CheckInRecordedV1', subject));
    const { code, stderr } = gen();
    expect(code).toBe(1);
    expect(stderr).toContain(`subject "${subject}" is not of the form <domain>.<entity>.<event>.v<N>`);
  });

  it('rejects a subject used twice, naming both messages', () => {
    writeProto('a.proto', event('FirstV1', 'test.thing.happened.v1'));
    writeProto('b.proto', event('SecondV1', 'test.thing.happened.v1').replace('package lws.test', 'package lws.other'));
    const { code, stderr } = gen();
    expect(code).toBe(1);
    expect(stderr).toContain('duplicate subject "test.thing.happened.v1"');
    expect(stderr).toContain('FirstV1');
    expect(stderr).toContain('SecondV1');
  });

  it('rejects a command that reuses an event subject', () => {
    writeProto(
      'a.proto',
      event('ThingV1', 'test.thing.happened.v1') +
        'service Things {\n  rpc Do(ThingV1) returns (ThingV1) { option (lws.command) = "test.thing.happened.v1"; }\n}\n',
    );
    const { code, stderr } = gen();
    expect(code).toBe(1);
    expect(stderr).toContain('duplicate subject "test.thing.happened.v1"');
  });

  it('rejects an rpc without a command subject', () => {
    writeProto('a.proto', `${event('ThingV1', 'test.thing.happened.v1')}service Things {\n  rpc Do(ThingV1) returns (ThingV1);\n}\n`);
    const { code, stderr } = gen();
    expect(code).toBe(1);
    expect(stderr).toContain('Things.Do: every rpc needs option (lws.command)');
  });

  it('rejects an invalid proto with the file and line', () => {
    writeProto('broken.proto', 'message Broken {\n  string name = ;\n}\n');
    const { code, stderr } = gen();
    expect(code).toBe(1);
    expect(stderr).toMatch(/invalid proto: .*broken\.proto, line 5/);
  });

  it('rejects a misspelt or misplaced rule', () => {
    writeProto(
      'a.proto',
      'message ThingV1 {\n  string name = 1 [(lws.rules).minlen = 2];\n  int32 count = 2 [(lws.rules).format = "uuid"];\n}\n',
    );
    const { code, stderr } = gen();
    expect(code).toBe(1);
    expect(stderr).toContain('ThingV1.name: unknown rule "minlen"');
    expect(stderr).toContain('ThingV1.count: rule(s) format do not apply to a number');
  });

  it('writes nothing when the protos are invalid', () => {
    writeProto('a.proto', event('ThingV1', 'not a subject'));
    expect(gen().code).toBe(1);
    expect(existsSync(outDir)).toBe(false);
  });
});
