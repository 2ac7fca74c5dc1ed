// The versions the package says it reads (package.json `shitheadEnv`, the description) are the ones its code reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { READS } from '../src/index.js';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test('package.json states the protocol, view, encoding and action-layout versions the code reads', () => {
  assert.deepEqual(manifest.shitheadEnv, { ...READS, encodings: [...READS.encodings] });
  const { protocol, view, encodings, actionLayout } = READS;
  assert.match(manifest.description, new RegExp(`bot protocol ${protocol}, view format ${view}, `
    + `observation encodings ${encodings.join(' and ')}, action layout ${actionLayout}`));
});

test('the package ships no model: they are fetched by URL or passed as bytes', () => {
  assert.deepEqual(manifest.files, ['src', 'types', 'README.md']);
});
