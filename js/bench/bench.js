// Decisions per second of model:auto on the fixture views: this package in Node.js (onnxruntime-node) and in
// Chromium (onnxruntime-web, wasm, one thread), against the Python model:auto (handle_request) in the same run,
// the three interleaved round by round. Each decision: parse and check the view, encode, run the network.
// Usage, from js/: PYTHON=../.venv/bin/python node bench/bench.js [rounds=3] [passes=5]
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import * as ort from 'onnxruntime-node';

import { autoBot, shippedModels } from '../src/node.js';
import { ROOT, launchChromium, serveRepository } from '../test/browser.js';
import { DECISIONS, PRETRAINED } from '../test/fixtures.js';

const rounds = Number(process.argv[2] ?? 3);
const passes = Number(process.argv[3] ?? 5);
const views = DECISIONS.map((d) => d.view);
const python = process.env.PYTHON ?? 'python3';

async function nodeRate() {
  const bot = await autoBot(PRETRAINED, { ort, sessionOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } });
  for (const view of views) await bot.act(view);
  const start = performance.now();
  for (let p = 0; p < passes; p += 1) for (const view of views) await bot.act(view);
  return (passes * views.length) / ((performance.now() - start) / 1000);
}

function pythonRate() {
  const out = execFileSync(python, [join('js', 'bench', 'python_decisions.py'), String(passes)], {
    cwd: ROOT, env: { ...process.env, PYTHONPATH: ROOT }, encoding: 'utf8',
  });
  const { decisions, seconds } = JSON.parse(out.trim().split('\n').pop());
  return decisions / seconds;
}

async function chromiumRate(browser, url, names) {
  const page = await browser.newPage();
  await page.goto(`${url}/js/example/index.html`);
  await page.waitForFunction(() => window.exampleResult !== undefined);
  const rate = await page.evaluate(async ({ names, views, passes }) => {
    const ortWeb = await import('onnxruntime-web');
    const { AutoBot } = await import('/js/src/index.js');
    ortWeb.env.wasm.numThreads = 1;
    const cards = await Promise.all(names.map(async (name) => (await fetch(`/agents/pretrained/${name}/bot.json`)).json()));
    const bot = new AutoBot({ cards, ort: ortWeb, model: (card) => `/agents/pretrained/${card.name}/model.onnx` });
    for (const view of views) await bot.act(view);
    const start = performance.now();
    for (let p = 0; p < passes; p += 1) for (const view of views) await bot.act(view);
    return (passes * views.length) / ((performance.now() - start) / 1000);
  }, { names, views, passes });
  await page.close();
  return rate;
}

const names = (await shippedModels(PRETRAINED)).map(({ model }) => model.split('/').slice(-2, -1)[0]);
const server = await serveRepository();
const browser = await launchChromium();
const rows = [];
try {
  for (let round = 1; round <= rounds; round += 1) {
    const row = { round, node: await nodeRate(), python: pythonRate(), chromium: await chromiumRate(browser, server.url, names) };
    rows.push(row);
    console.log(`round ${round}: Node ${row.node.toFixed(0)}/s, Python ${row.python.toFixed(0)}/s, Chromium ${row.chromium.toFixed(0)}/s `
      + `(Node/Python ${(row.node / row.python).toFixed(2)}, Chromium/Python ${(row.chromium / row.python).toFixed(2)})`);
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`median of ${rounds} rounds, ${passes} passes over ${views.length} views each: Node ${median(rows.map((r) => r.node)).toFixed(0)}/s, `
  + `Python ${median(rows.map((r) => r.python)).toFixed(0)}/s, Chromium ${median(rows.map((r) => r.chromium)).toFixed(0)}/s; `
  + `Node/Python ${median(rows.map((r) => r.node / r.python)).toFixed(2)}, Chromium/Python ${median(rows.map((r) => r.chromium / r.python)).toFixed(2)}`);
