#!/usr/bin/env node
// Generates libs/contracts/src (TypeScript types + zod validators + subject registry) from proto/.
// Usage: node tools/gen-contracts/gen.mjs [--proto DIR] [--out DIR]
//   --proto  folder holding the .proto files (default: <repo>/proto)
//   --out    source folder to write generated/ and index.ts into (default: <repo>/libs/contracts/src)
// protoc is not needed: protobufjs parses the files.
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const protobuf = require('protobufjs');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const HEADER = '// generated from proto/ by tools/gen-contracts — do not edit\n';
const OPTIONS_FILE = 'lws/options.proto';

// <domain>.<entity>.<event>.v<N>: lower-case tokens, "_" only between letters/digits inside a token.
const TOKEN = '[a-z][a-z0-9]*(?:_[a-z0-9]+)*';
const SUBJECT_RE = new RegExp(`^(${TOKEN})\\.(${TOKEN})\\.(${TOKEN})\\.v([1-9][0-9]*)$`);

const E164_RE = '^\\+[1-9][0-9]{1,14}$';
const STRING_RULES = ['min_len', 'max_len', 'format', 'one_of', 'pattern'];
const NUMBER_RULES = ['min', 'max', 'one_of_int'];
const FORMATS = ['uuid', 'datetime', 'e164', 'email'];
const INT_TYPES = ['int32', 'sint32', 'sfixed32', 'int64', 'sint64', 'sfixed64', 'uint32', 'fixed32', 'uint64', 'fixed64'];
const UNSIGNED_TYPES = ['uint32', 'fixed32', 'uint64', 'fixed64'];
const FLOAT_TYPES = ['double', 'float'];

class GenError extends Error {}

function parseArgs(argv) {
  const args = { proto: path.join(REPO, 'proto'), out: path.join(REPO, 'libs/contracts/src') };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag !== '--proto' && flag !== '--out') throw new GenError(`unknown argument "${flag}" (expected --proto DIR, --out DIR)`);
    const value = argv[++i];
    if (!value) throw new GenError(`${flag} needs a folder`);
    args[flag.slice(2)] = path.resolve(value);
  }
  return args;
}

export function listFiles(dir, ext) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full, ext));
    else if (entry.name.endsWith(ext)) out.push(full);
  }
  return out.sort();
}

const toPosix = (p) => p.split(path.sep).join('/');
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());
const q = (s) => `'${String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

export function loadRoot(protoDir, files) {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (path.isAbsolute(target)) return target;
    if (target.startsWith('google/protobuf/')) return path.join(path.dirname(require.resolve('protobufjs/package.json')), target);
    return path.join(protoDir, target);
  };
  try {
    root.loadSync(files, { alternateCommentMode: true });
    root.resolveAll();
  } catch (e) {
    throw new GenError(`invalid proto: ${e.message}`);
  }
  return root;
}

function fileOf(obj) {
  for (let o = obj; o; o = o.parent) if (o.filename) return o.filename;
  return undefined;
}

/** Collects messages, enums and services declared in protoDir (the options file excluded). */
function collect(root, protoDir) {
  const types = [];
  const enums = [];
  const services = [];
  const ownFile = (obj) => {
    const file = fileOf(obj);
    if (!file) return undefined;
    const rel = toPosix(path.relative(protoDir, file));
    if (rel.startsWith('..') || path.isAbsolute(rel) || rel === OPTIONS_FILE) return undefined;
    return rel;
  };
  const walk = (ns, prefix) => {
    for (const obj of ns.nestedArray) {
      if (obj instanceof protobuf.Type) {
        const file = ownFile(obj);
        if (file) types.push({ obj, file, tsName: prefix + obj.name });
        walk(obj, prefix + obj.name);
      } else if (obj instanceof protobuf.Enum) {
        const file = ownFile(obj);
        if (file) enums.push({ obj, file, tsName: prefix + obj.name });
      } else if (obj instanceof protobuf.Service) {
        const file = ownFile(obj);
        if (file) services.push({ obj, file });
      } else if (obj instanceof protobuf.Namespace) {
        walk(obj, '');
      }
    }
  };
  walk(root, '');
  return { types, enums, services };
}

let protoRoot = '';

/** "identity.proto: lws.identity.UserView", the prefix of every error about obj. */
function where(obj) {
  const file = fileOf(obj);
  const name = obj.fullName.replace(/^\./, '');
  return file ? `${toPosix(path.relative(protoRoot, file))}: ${name}` : name;
}

function checkCustomOptions(obj, allowed, errors) {
  for (const key of Object.keys(obj.options ?? {})) {
    if (key.startsWith('(') && !allowed.some((a) => key === a || key.startsWith(`${a}.`))) {
      errors.push(`${where(obj)}: unknown option ${key} (allowed here: ${allowed.join(', ') || 'none'})`);
    }
  }
}

export function rulesOf(field, errors) {
  const rules = {};
  for (const entry of field.parsedOptions ?? []) {
    const value = entry['(lws.rules)'];
    if (value === undefined) continue;
    for (const [k, v] of Object.entries(value)) {
      if (Array.isArray(rules[k]) || Array.isArray(v)) rules[k] = [...(rules[k] ?? []), ...[v].flat()];
      else rules[k] = v;
    }
  }
  const ctx = `${where(field.parent)}.${field.name}`;
  for (const [k, v] of Object.entries(rules)) {
    if (!STRING_RULES.includes(k) && !NUMBER_RULES.includes(k)) {
      errors.push(`${ctx}: unknown rule "${k}" (known: ${[...STRING_RULES, ...NUMBER_RULES].join(', ')})`);
    } else if (['min_len', 'max_len'].includes(k) && !(Number.isInteger(v) && v >= 0)) {
      errors.push(`${ctx}: rule ${k} must be a non-negative integer`);
    } else if (['min', 'max'].includes(k) && typeof v !== 'number') {
      errors.push(`${ctx}: rule ${k} must be a number`);
    } else if (k === 'format' && !FORMATS.includes(v)) {
      errors.push(`${ctx}: rule format must be one of ${FORMATS.join(', ')}, got "${v}"`);
    } else if (k === 'one_of' && !(v.length > 0 && v.every((s) => typeof s === 'string'))) {
      errors.push(`${ctx}: rule one_of must list strings`);
    } else if (k === 'one_of_int' && !(v.length > 0 && v.every((n) => Number.isInteger(n)))) {
      errors.push(`${ctx}: rule one_of_int must list integers`);
    } else if (k === 'pattern') {
      try {
        new RegExp(v);
      } catch (e) {
        errors.push(`${ctx}: rule pattern is not a valid regular expression: ${e.message}`);
      }
    }
  }
  return rules;
}

/** Returns { ts, zod } for one value of the field's type (element type for repeated/map fields). */
function valueType(field, rules, names, errors) {
  const ctx = `${where(field.parent)}.${field.name}`;
  const has = (list) => list.filter((k) => rules[k] !== undefined);
  const type = field.type;
  if (field.resolvedType) {
    if (Object.keys(rules).length) errors.push(`${ctx}: rules apply only to string and number fields`);
    const target = names.get(field.resolvedType.fullName);
    if (!target) {
      errors.push(
        `${ctx}: type ${field.resolvedType.fullName.replace(/^\./, '')} is not supported (times: a string with (lws.rules).format = "datetime"; otherwise declare your own message)`,
      );
      return { ts: 'unknown', zod: 'z.unknown()', deps: [] };
    }
    const zod = field.resolvedType instanceof protobuf.Enum ? `${target.tsName}Schema` : `z.lazy(() => ${target.tsName}Schema)`;
    return { ts: target.tsName, zod, deps: [target] };
  }
  if (type === 'string') {
    const wrong = has(NUMBER_RULES);
    if (wrong.length) errors.push(`${ctx}: rule(s) ${wrong.join(', ')} do not apply to a string`);
    if (rules.one_of) {
      const others = has(STRING_RULES).filter((k) => k !== 'one_of');
      if (others.length) errors.push(`${ctx}: one_of cannot be combined with ${others.join(', ')}`);
      return { ts: rules.one_of.map(q).join(' | '), zod: `z.enum([${rules.one_of.map(q).join(', ')}])`, deps: [] };
    }
    let zod = 'z.string()';
    if (rules.min_len !== undefined) zod += `.min(${rules.min_len})`;
    if (rules.max_len !== undefined) zod += `.max(${rules.max_len})`;
    if (rules.format === 'uuid') zod += '.uuid()';
    if (rules.format === 'datetime') zod += '.datetime()';
    if (rules.format === 'email') zod += '.email()';
    if (rules.format === 'e164')
      zod += `.regex(new RegExp(${q(E164_RE)}), ${q('Invalid phone number: expected E.164, e.g. +447700900123')})`;
    if (rules.pattern !== undefined) zod += `.regex(new RegExp(${q(rules.pattern)}), ${q(`String must match ${rules.pattern}`)})`;
    return { ts: 'string', zod, deps: [] };
  }
  if (INT_TYPES.includes(type) || FLOAT_TYPES.includes(type)) {
    const wrong = has(STRING_RULES);
    if (wrong.length) errors.push(`${ctx}: rule(s) ${wrong.join(', ')} do not apply to a number`);
    const isInt = INT_TYPES.includes(type);
    if (rules.one_of_int && !isInt) errors.push(`${ctx}: one_of_int applies only to integer fields`);
    let zod = isInt ? 'z.number().int()' : 'z.number().finite()';
    if (rules.min !== undefined) zod += `.min(${rules.min})`;
    else if (UNSIGNED_TYPES.includes(type)) zod += '.min(0)';
    if (rules.max !== undefined) zod += `.max(${rules.max})`;
    if (rules.one_of_int) {
      const allowed = `[${rules.one_of_int.join(', ')}]`;
      zod += `.refine((v) => ${allowed}.includes(v), { message: ${q(`Number must be one of ${rules.one_of_int.join(', ')}`)} })`;
    }
    return { ts: 'number', zod, deps: [] };
  }
  if (type === 'bool') {
    if (Object.keys(rules).length) errors.push(`${ctx}: rules do not apply to a bool`);
    return { ts: 'boolean', zod: 'z.boolean()', deps: [] };
  }
  errors.push(`${ctx}: type ${type} is not supported (use string, bool, an integer, double, a message or an enum)`);
  return { ts: 'unknown', zod: 'z.unknown()', deps: [] };
}

function docComment(text, indent) {
  if (!text) return '';
  const lines = text.trim().replace(/\*\//g, '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function emitEnum(entry) {
  const values = Object.keys(entry.obj.values).map((v) => v.toLowerCase());
  const union = values.map(q).join(' | ');
  return (
    docComment(entry.obj.comment, '') +
    `export type ${entry.tsName} = ${union};\n` +
    `export const ${entry.tsName}Schema: z.ZodType<${entry.tsName}> = z.enum([${values.map(q).join(', ')}]);\n`
  );
}

function emitType(entry, names, errors) {
  const type = entry.obj;
  checkCustomOptions(type, ['(lws.subject)'], errors);
  for (const oneof of type.oneofsArray) {
    if (!oneof.isProto3Optional) errors.push(`${where(type)}: oneof ${oneof.name} is not supported (use optional fields)`);
  }
  const deps = [];
  const tsFields = [];
  const zodFields = [];
  for (const field of [...type.fieldsArray].sort((a, b) => a.id - b.id)) {
    checkCustomOptions(field, ['(lws.rules)'], errors);
    const rules = rulesOf(field, errors);
    const optional = field.options?.proto3_optional === true || field.rule === 'optional';
    let { ts, zod, deps: d } = valueType(field, rules, names, errors);
    deps.push(...d);
    if (field instanceof protobuf.MapField) {
      ts = `Record<string, ${ts}>`;
      zod = `z.record(z.string(), ${zod})`;
    } else if (field.repeated) {
      ts = ts.includes('|') ? `(${ts})[]` : `${ts}[]`;
      // Absent reads as empty, as in protobuf: a list added later must not refuse what older producers sent.
      zod = `z.array(${zod}).default([])`;
    }
    if (optional) zod += '.optional()';
    tsFields.push(`${docComment(field.comment, '  ')}  ${field.name}${optional ? '?' : ''}: ${ts};\n`);
    zodFields.push(`    ${field.name}: ${zod},\n`);
  }
  const code =
    docComment(type.comment, '') +
    `export interface ${entry.tsName} {\n${tsFields.join('')}}\n` +
    `export const ${entry.tsName}Schema: z.ZodType<${entry.tsName}, z.ZodTypeDef, unknown> = z\n  .object({\n${zodFields.join('')}  })\n  .strict();\n`;
  return { code, deps };
}

function checkSubject(subject, ctx, errors) {
  if (typeof subject !== 'string' || !SUBJECT_RE.test(subject)) {
    errors.push(`${ctx}: subject "${subject}" is not of the form <domain>.<entity>.<event>.v<N> (lower-case tokens, "_" inside a token)`);
    return false;
  }
  return true;
}

/** Builds { domain: { entity: { event: subject } } } pointing at the latest version of each subject. */
function subjectTree(subjects, kind, errors) {
  const tree = {};
  const latest = new Map();
  for (const subject of subjects) {
    const [, d, e, ev, v] = SUBJECT_RE.exec(subject);
    const key = [d, e, ev].map(camel).join('.');
    const base = `${d}.${e}.${ev}`;
    const prev = latest.get(key);
    if (prev && prev.base !== base) {
      errors.push(`${kind} subjects "${prev.subject}" and "${subject}" map to the same constant ${key}`);
      continue;
    }
    if (!prev || prev.version < Number(v)) latest.set(key, { base, subject, version: Number(v) });
  }
  for (const [key, { subject }] of [...latest].sort(([a], [b]) => a.localeCompare(b))) {
    const [d, e, ev] = key.split('.');
    tree[d] ??= {};
    tree[d][e] ??= {};
    tree[d][e][ev] = subject;
  }
  return tree;
}

function emitTree(tree, indent) {
  const pad = '  '.repeat(indent);
  const lines = Object.keys(tree)
    .sort()
    .map((k) => (typeof tree[k] === 'string' ? `${pad}  ${k}: ${q(tree[k])},\n` : `${pad}  ${k}: ${emitTree(tree[k], indent + 1)},\n`));
  return `{\n${lines.join('')}${pad}}`;
}

function moduleName(protoFile) {
  return protoFile.replace(/\.proto$/, '');
}

function importPath(fromModule, toModule) {
  const rel = path.posix.relative(path.posix.dirname(fromModule), toModule);
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function emitImports(fromModule, targets) {
  const byModule = new Map();
  for (const t of targets) {
    const mod = `messages/${moduleName(t.file)}`;
    if (mod === fromModule) continue;
    const set = byModule.get(mod) ?? new Set();
    set.add(t.tsName);
    set.add(`${t.tsName}Schema`);
    byModule.set(mod, set);
  }
  return [...byModule]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([mod, set]) => `import { ${[...set].sort().join(', ')} } from ${q(importPath(fromModule, mod))};\n`)
    .join('');
}

export function generate(protoDir, outDir) {
  protoRoot = protoDir;
  const files = listFiles(protoDir, '.proto');
  if (!files.some((f) => toPosix(path.relative(protoDir, f)) !== OPTIONS_FILE)) throw new GenError(`no .proto files in ${protoDir}`);
  const root = loadRoot(protoDir, files);
  const { types, enums, services } = collect(root, protoDir);
  const errors = [];

  const names = new Map();
  const byTsName = new Map();
  for (const entry of [...types, ...enums]) {
    const clash = byTsName.get(entry.tsName);
    if (clash) errors.push(`${where(entry.obj)} and ${where(clash.obj)} would both be named ${entry.tsName} in TypeScript; rename one`);
    if (['registry', 'runtime'].includes(moduleName(entry.file))) errors.push(`${entry.file}: this file name is reserved, rename it`);
    byTsName.set(entry.tsName, entry);
    names.set(entry.obj.fullName, entry);
  }

  const subjects = new Map();
  const claim = (subject, owner) => {
    const prev = subjects.get(subject);
    if (prev) errors.push(`duplicate subject "${subject}": ${prev} and ${owner}`);
    else subjects.set(subject, owner);
  };
  const events = [];
  for (const entry of types) {
    const subject = entry.obj.options?.['(lws.subject)'];
    if (subject === undefined) continue;
    if (!checkSubject(subject, where(entry.obj), errors)) continue;
    claim(subject, where(entry.obj));
    events.push({ subject, entry });
  }
  const commands = [];
  for (const { obj: service } of services) {
    checkCustomOptions(service, [], errors);
    for (const method of service.methodsArray) {
      const ctx = `${where(service)}.${method.name}`;
      checkCustomOptions(method, ['(lws.command)'], errors);
      const subject = method.options?.['(lws.command)'];
      if (method.requestStream || method.responseStream) errors.push(`${ctx}: streaming rpcs are not supported`);
      if (subject === undefined) {
        errors.push(`${ctx}: every rpc needs option (lws.command) = "<domain>.<entity>.<action>.v<N>"`);
        continue;
      }
      if (!checkSubject(subject, ctx, errors)) continue;
      claim(subject, ctx);
      const request = names.get(method.resolvedRequestType.fullName);
      const reply = names.get(method.resolvedResponseType.fullName);
      if (!request || !reply) {
        errors.push(`${ctx}: request and reply must be messages declared under proto/`);
        continue;
      }
      commands.push({ subject, request, reply });
    }
  }

  const outputs = new Map();
  const protoFiles = [...new Set([...types, ...enums].map((e) => e.file))].sort();
  for (const file of protoFiles) {
    const mod = `messages/${moduleName(file)}`;
    const parts = [];
    const deps = [];
    for (const entry of enums.filter((e) => e.file === file).sort((a, b) => a.tsName.localeCompare(b.tsName))) {
      parts.push(emitEnum(entry));
    }
    for (const entry of types.filter((e) => e.file === file).sort((a, b) => a.tsName.localeCompare(b.tsName))) {
      const { code, deps: d } = emitType(entry, names, errors);
      parts.push(code);
      deps.push(...d);
    }
    const body = `${HEADER}// source: proto/${file}\nimport { z } from 'zod';\n${emitImports(mod, deps)}\n${parts.join('\n')}`;
    outputs.set(`generated/${mod}.ts`, body);
  }

  if (errors.length) throw new GenError(`${errors.length} problem(s) in ${protoDir}:\n  - ${errors.join('\n  - ')}`);

  events.sort((a, b) => a.subject.localeCompare(b.subject));
  commands.sort((a, b) => a.subject.localeCompare(b.subject));
  const registryDeps = [...events.map((e) => e.entry), ...commands.flatMap((c) => [c.request, c.reply])];
  const eventSubjects = events.map((e) => e.subject);
  const commandSubjects = commands.map((c) => c.subject);
  const registry =
    `${HEADER}import { z } from 'zod';\n${emitImports('registry', registryDeps)}\n` +
    `/** Event subject -> the data it carries. */\n` +
    `export type EventMap = {\n${events.map((e) => `  ${q(e.subject)}: ${e.entry.tsName};\n`).join('')}};\n` +
    `export type EventSubject = keyof EventMap;\n\n` +
    `export const EventSchemas: { readonly [S in EventSubject]: z.ZodType<EventMap[S], z.ZodTypeDef, unknown> } = Object.freeze({\n` +
    events.map((e) => `  ${q(e.subject)}: ${e.entry.tsName}Schema,\n`).join('') +
    `});\n\n` +
    `export const EVENT_SUBJECTS: readonly EventSubject[] = Object.freeze([\n${eventSubjects.map((s) => `  ${q(s)},\n`).join('')}] as const);\n\n` +
    `/** Command pattern -> its request and reply. */\n` +
    `export type CommandMap = {\n${commands.map((c) => `  ${q(c.subject)}: { request: ${c.request.tsName}; reply: ${c.reply.tsName} };\n`).join('')}};\n` +
    `export type CommandPattern = keyof CommandMap;\n\n` +
    `export const CommandSchemas: {\n  readonly [P in CommandPattern]: {\n    readonly request: z.ZodType<CommandMap[P]['request'], z.ZodTypeDef, unknown>;\n    readonly reply: z.ZodType<CommandMap[P]['reply'], z.ZodTypeDef, unknown>;\n  };\n} = Object.freeze({\n` +
    commands.map((c) => `  ${q(c.subject)}: { request: ${c.request.tsName}Schema, reply: ${c.reply.tsName}Schema },\n`).join('') +
    `});\n\n` +
    `export const COMMAND_PATTERNS: readonly CommandPattern[] = Object.freeze([\n${commandSubjects.map((s) => `  ${q(s)},\n`).join('')}] as const);\n\n` +
    `/** Latest version of every event subject, e.g. Subjects.shifts.checkin.recorded. */\n` +
    `export const Subjects = ${emitTree(subjectTree(eventSubjects, 'event', errors), 0)} as const;\n\n` +
    `/** Latest version of every command pattern, e.g. Commands.identity.auth.verifyPassword. */\n` +
    `export const Commands = ${emitTree(subjectTree(commandSubjects, 'command', errors), 0)} as const;\n`;
  if (errors.length) throw new GenError(`${errors.length} problem(s) in ${protoDir}:\n  - ${errors.join('\n  - ')}`);
  outputs.set('generated/registry.ts', registry);
  outputs.set('generated/runtime.ts', HEADER + readFileSync(path.join(HERE, 'templates/runtime.ts'), 'utf8'));

  const modules = [...protoFiles.map((f) => `./generated/messages/${moduleName(f)}`), './generated/registry', './generated/runtime'];
  outputs.set('index.ts', `${HEADER}${modules.map((m) => `export * from ${q(m)};\n`).join('')}`);

  writeOutputs(outDir, outputs);
  return { events: eventSubjects, commands: commandSubjects, files: [...outputs.keys()].sort() };
}

/** Writes only files whose content changed (keeps tsc -b incremental) and removes stale generated files. */
function writeOutputs(outDir, outputs) {
  const generatedDir = path.join(outDir, 'generated');
  for (const file of listFiles(generatedDir, '')) {
    const rel = toPosix(path.relative(outDir, file));
    if (!outputs.has(rel)) unlinkSync(file);
  }
  for (const [rel, content] of outputs) {
    const file = path.join(outDir, rel);
    if (existsSync(file) && readFileSync(file, 'utf8') === content) continue;
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  removeEmptyDirs(generatedDir);
}

function removeEmptyDirs(dir) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return;
  for (const entry of readdirSync(dir)) removeEmptyDirs(path.join(dir, entry));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const args = parseArgs(process.argv.slice(2));
    const result = generate(args.proto, args.out);
    console.log(
      `gen-contracts: ${result.events.length} events, ${result.commands.length} commands -> ${path.relative(process.cwd(), args.out) || '.'}`,
    );
  } catch (e) {
    if (!(e instanceof GenError)) throw e;
    console.error(`gen-contracts: ${e.message}`);
    process.exit(1);
  }
}
