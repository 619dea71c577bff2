#!/usr/bin/env node
// Whether proto/ still speaks to what is deployed: compares the contract with the one recorded in
// proto/compat-baseline.json and names every breaking change. A service team may change
// its contract in any compatible way; a breaking one needs a new version (a new message and subject
// ending in .v<N+1>, the old one kept until nobody uses it).
//
//   node tools/gen-contracts/compat.mjs            check: exit 1 naming each breaking change, or
//                                                  asking for the baseline to be recorded again
//   node tools/gen-contracts/compat.mjs --update   record the current contract as the baseline
//                                                  (refused while a change is breaking)
import { createRequire } from 'node:module';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles, loadRoot, rulesOf } from './gen.mjs';

const require = createRequire(import.meta.url);
const protobuf = require('protobufjs');

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BASELINE = path.join(REPO, 'proto/compat-baseline.json');
const OPTIONS_FILE = 'lws/options.proto';

function fileOf(obj) {
  for (let o = obj; o; o = o.parent) if (o.filename) return o.filename;
  return undefined;
}

const fullName = (obj) => obj.fullName.replace(/^\./, '');

/** A field as the wire sees it: its number, type, how many, whether it may be absent, and its rules. */
function fieldOf(field) {
  // The generator reports rules it cannot read; here they are only compared.
  const rules = rulesOf(field, []);
  return {
    id: field.id,
    type: field.resolvedType ? fullName(field.resolvedType) : field.type,
    ...(field.map ? { keyType: field.keyType } : {}),
    shape: field.map ? 'map' : field.repeated ? 'repeated' : 'single',
    optional: Boolean(field.options?.proto3_optional || field.proto3Optional),
    ...(Object.keys(rules).length > 0 ? { rules } : {}),
  };
}

/** The contract as the services see it: every message, enum, event subject and command subject. */
export function describeContracts(protoDir = path.join(REPO, 'proto')) {
  const files = listFiles(protoDir, '.proto');
  const root = loadRoot(protoDir, files);
  const snapshot = { messages: {}, enums: {}, events: {}, commands: {} };
  const own = (obj) => {
    const file = fileOf(obj);
    const rel = file ? path.relative(protoDir, file).split(path.sep).join('/') : '..';
    return !rel.startsWith('..') && rel !== OPTIONS_FILE;
  };
  const walk = (ns) => {
    for (const obj of ns.nestedArray) {
      if (obj instanceof protobuf.Type && own(obj)) {
        const fields = {};
        for (const f of obj.fieldsArray) fields[f.name] = fieldOf(f);
        snapshot.messages[fullName(obj)] = fields;
        const subject = obj.options?.['(lws.subject)'];
        if (subject) snapshot.events[subject] = fullName(obj);
        walk(obj);
      } else if (obj instanceof protobuf.Enum && own(obj)) {
        snapshot.enums[fullName(obj)] = { ...obj.values };
      } else if (obj instanceof protobuf.Service && own(obj)) {
        for (const m of obj.methodsArray) {
          const subject = m.options?.['(lws.command)'];
          if (subject) snapshot.commands[subject] = { request: fullName(m.resolvedRequestType), reply: fullName(m.resolvedResponseType) };
        }
      } else if (obj instanceof protobuf.Namespace && !(obj instanceof protobuf.Type)) {
        walk(obj);
      }
    }
  };
  walk(root);
  return sortKeys(snapshot);
}

function sortKeys(value) {
  if (Array.isArray(value) || value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k])]),
  );
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What in `current` breaks a service built against `baseline`: one sentence each. Adding is
 * compatible (a field a producer may leave out, a message, a subject, an enum value); removing,
 * renumbering, retyping, changing whether a field may be absent, a new field every producer must
 * send, and a subject that names another message are not. Tightened rules (a shorter max_len, a
 * new pattern) refuse what old producers send, so they break too.
 */
export function breakingChanges(baseline, current) {
  const out = [];
  for (const [subject, message] of Object.entries(baseline.events)) {
    if (!(subject in current.events)) out.push(`event ${subject} was removed (keep it until no service publishes or reads it)`);
    else if (current.events[subject] !== message) out.push(`event ${subject} now carries ${current.events[subject]} instead of ${message}`);
  }
  for (const [subject, types] of Object.entries(baseline.commands)) {
    const now = current.commands[subject];
    if (!now) out.push(`command ${subject} was removed`);
    else if (!same(now, types))
      out.push(`command ${subject} changed its types from ${types.request} → ${types.reply} to ${now.request} → ${now.reply}`);
  }
  for (const [name, fields] of Object.entries(baseline.messages)) {
    const now = current.messages[name];
    if (!now) {
      out.push(`message ${name} was removed`);
      continue;
    }
    const byId = new Map(Object.entries(now).map(([f, d]) => [d.id, f]));
    for (const [field, was] of Object.entries(fields)) {
      const is = now[field];
      const where = `${name}.${field}`;
      if (!is) {
        out.push(byId.has(was.id) ? `${where} (${was.id}) was renamed to ${byId.get(was.id)}` : `${where} (${was.id}) was removed`);
        continue;
      }
      if (is.id !== was.id) out.push(`${where} was renumbered from ${was.id} to ${is.id}`);
      if (is.type !== was.type || is.keyType !== was.keyType) out.push(`${where} changed type from ${was.type} to ${is.type}`);
      if (is.shape !== was.shape) out.push(`${where} changed from ${was.shape} to ${is.shape}`);
      if (is.optional !== was.optional)
        out.push(`${where} is ${is.optional ? 'now optional (readers count on it)' : 'now required (older producers leave it out)'}`);
      const tightened = tighterRules(was.rules ?? {}, is.rules ?? {});
      if (tightened) out.push(`${where} ${tightened}`);
    }
    for (const [field, is] of Object.entries(now)) {
      if (!(field in fields) && is.shape === 'single' && !is.optional)
        out.push(`${name}.${field} (${is.id}) was added as required (older producers do not send it): make it optional`);
    }
  }
  for (const [name, values] of Object.entries(baseline.enums)) {
    const now = current.enums[name];
    if (!now) out.push(`enum ${name} was removed`);
    else
      for (const [v, n] of Object.entries(values))
        if (now[v] !== n) out.push(`enum ${name}.${v} (${n}) was ${v in now ? `renumbered to ${now[v]}` : 'removed'}`);
  }
  return out;
}

/** How a field's rules now refuse what they accepted, or null. */
function tighterRules(was, is) {
  if ((is.max_len ?? Infinity) < (was.max_len ?? Infinity))
    return `now allows at most ${is.max_len} characters (was ${was.max_len ?? 'any'})`;
  if ((is.min_len ?? 0) > (was.min_len ?? 0)) return `now needs at least ${is.min_len} characters (was ${was.min_len ?? 0})`;
  if ((is.max ?? Infinity) < (was.max ?? Infinity)) return `now allows at most ${is.max} (was ${was.max ?? 'any'})`;
  if ((is.min ?? -Infinity) > (was.min ?? -Infinity)) return `now needs at least ${is.min} (was ${was.min ?? 'any'})`;
  if (is.format !== undefined && is.format !== was.format) return `now must be ${is.format}`;
  if (is.pattern !== undefined && is.pattern !== was.pattern) return `now must match ${is.pattern}`;
  for (const key of ['one_of', 'one_of_int']) {
    if (!is[key]) continue;
    const allowed = new Set(is[key].map(String));
    const dropped = (was[key] ?? []).map(String).filter((v) => !allowed.has(v));
    if (!was[key] || dropped.length > 0)
      return `no longer accepts ${was[key] ? dropped.join(', ') : `any value outside ${is[key].join(', ')}`}`;
  }
  return null;
}

/** The check `npm test` runs: breaking changes, or a compatible change the baseline has not recorded. */
export function checkAgainstBaseline(protoDir, baselineFile = BASELINE) {
  const baseline = existsSync(baselineFile)
    ? JSON.parse(readFileSync(baselineFile, 'utf8'))
    : { messages: {}, enums: {}, events: {}, commands: {} };
  const current = describeContracts(protoDir);
  const breaking = breakingChanges(baseline, current);
  return { breaking, recorded: breaking.length === 0 && same(baseline, current), current };
}

/** `--proto DIR` and `--baseline FILE` (tests point them at copies), `--update`. */
function parseArgs(argv) {
  const args = { proto: path.join(REPO, 'proto'), baseline: BASELINE, update: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--update') args.update = true;
    else if ((argv[i] === '--proto' || argv[i] === '--baseline') && argv[i + 1]) args[argv[i].slice(2)] = path.resolve(argv[++i]);
    else throw new Error(`unknown argument "${argv[i]}" (expected --proto DIR, --baseline FILE, --update)`);
  }
  return args;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { proto, baseline, update } = parseArgs(process.argv.slice(2));
  const { breaking, recorded, current } = checkAgainstBaseline(proto, baseline);
  if (breaking.length > 0) {
    console.error(
      `contracts: ${breaking.length} breaking change(s) against proto/compat-baseline.json:\n${breaking.map((b) => `  - ${b}`).join('\n')}`,
    );
    console.error(
      'Add a new version instead (a new message and subject ending in .v<N+1>), and keep the old one until no service uses it.',
    );
    process.exit(1);
  }
  if (update) {
    writeFileSync(baseline, `${JSON.stringify(current, null, 2)}\n`);
    console.log('contracts: proto/compat-baseline.json records the current contract');
  } else if (!recorded) {
    console.error(
      'contracts: proto/ changed compatibly; record it with `npm run contracts:baseline` and commit proto/compat-baseline.json',
    );
    process.exit(1);
  } else {
    console.log('contracts: proto/ is compatible with proto/compat-baseline.json');
  }
}
