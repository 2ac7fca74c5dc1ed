// The README's Node.js example runs as written (from the repository root, `view` a recorded view of the seat to act).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ROOT } from './browser.js';
import { DECISIONS } from './fixtures.js';

test("the README's Node.js example answers a view", () => {
  const readme = readFileSync(join(ROOT, 'js', 'README.md'), 'utf8');
  const example = /## In Node\.js\n\n```js\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(example, 'README.md has a js block under "## In Node.js"');
  assert.ok(example.trim().split('\n').length <= 10, 'the example is ten lines at most');
  const decision = DECISIONS.find((d) => d.model === 'generalist_v2');
  const script = join(ROOT, 'js', '.readme-example.mjs'); // inside the package, so 'shithead-bots' resolves to it
  const lines = example.split('\n');
  const imports = lines.filter((line) => line.startsWith('import '));
  const body = lines.filter((line) => !line.startsWith('import '));
  writeFileSync(script, [...imports, `const view = ${JSON.stringify(decision.view)};`, ...body].join('\n'));
  try {
    const out = execFileSync(process.execPath, [script], { cwd: ROOT, encoding: 'utf8' });
    assert.ok(out.includes(`kind: '${decision.response.action.kind}'`), out);
  } finally {
    rmSync(script);
  }
});
