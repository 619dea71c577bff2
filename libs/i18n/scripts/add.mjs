#!/usr/bin/env node
// Adds translations to a language's file and keeps it sorted, so that several people (or helpers)
// adding texts at once never hand-merge JSON: `node libs/i18n/scripts/add.mjs cy new-texts.json`.
// A text already translated keeps its translation unless the new file gives another.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [code, source] = process.argv.slice(2);
if (!/^[a-z]{2,3}$/.test(code ?? '') || !source) {
  console.error('usage: add.mjs <language code> <file of {"English": "translation"}>');
  process.exit(2);
}
const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'locales', `${code}.json`);
const current = JSON.parse(readFileSync(file, 'utf8'));
const added = JSON.parse(readFileSync(source, 'utf8'));
const merged = { ...current, ...added };
const sorted = Object.fromEntries(
  Object.keys(merged)
    .sort((a, b) => a.localeCompare(b, 'en'))
    .map((k) => [k, merged[k]]),
);
writeFileSync(`${file}.tmp`, `${JSON.stringify(sorted, null, 2)}\n`);
renameSync(`${file}.tmp`, file);
console.log(`${code}.json: ${Object.keys(added).length} given, ${Object.keys(sorted).length - Object.keys(current).length} new`);
