// The versions the package says it reads (package.json `shitheadEnv`, the description) are the ones its code reads.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
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

test('npm pack: no model inside, and the size the README states', () => {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: new URL('..', import.meta.url), encoding: 'utf8' });
  const [pack] = JSON.parse(out);
  assert.ok(pack.files.every((f) => !f.path.endsWith('.onnx')), 'no model file in the package');
  assert.ok(pack.files.some((f) => f.path === 'types/index.d.ts'), 'the type declarations are packed (npm test builds them first)');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const [, packed, unpacked, files] = /`npm pack`: \*\*([\d.]+) kB\*\* \(([\d.]+) kB unpacked, (\d+) files\)/.exec(readme) ?? [];
  assert.ok(packed, 'README.md states the npm pack size');
  assert.equal(Number(files), pack.files.length);
  assert.ok(Math.abs(pack.size / 1000 - Number(packed)) < 0.5, `packed ${pack.size} bytes; README says ${packed} kB`);
  assert.ok(Math.abs(pack.unpackedSize / 1000 - Number(unpacked)) < 1, `unpacked ${pack.unpackedSize} bytes; README says ${unpacked} kB`);
});
