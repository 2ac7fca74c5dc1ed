// The example page in the system's Chromium (onnxruntime-web) answers every recorded view as the Python
// model:auto did. Without a Chromium the test is skipped, saying so (apt-get install chromium, or set SHITHEAD_CHROMIUM).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { chromiumPath, examplePage, launchChromium, serveRepository } from './browser.js';
import { FIXTURES, TOLERANCE } from './fixtures.js';

const skip = chromiumPath() === null && 'no Chromium found (apt-get install chromium, or set SHITHEAD_CHROMIUM)';
let server;
let browser;

before(async () => {
  if (skip) return;
  server = await serveRepository();
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

FIXTURES.tables.forEach((table, index) => {
  test(`example page in Chromium: ${table.rules} ${table.players}p`, { skip }, async () => {
    const model = table.decisions[0].model;
    const { page, result, errors } = await examplePage(browser, server.url, model, index);
    assert.equal(result.error, undefined, result.error);
    assert.deepEqual(errors, []);
    assert.equal(result.model, model);
    assert.equal(result.answers.length, table.decisions.length);
    result.answers.forEach((answer, i) => {
      const expected = table.decisions[i].response;
      assert.deepEqual(answer.action, expected.action, `decision ${i}`);
      answer.probabilities.forEach((p, j) => {
        assert.equal(p.index, expected.probabilities[j].index);
        assert.ok(Math.abs(p.probability - expected.probabilities[j].probability) <= TOLERANCE, `decision ${i}, action ${p.index}`);
      });
    });
    assert.equal(await page.locator('#decisions tr').count(), table.decisions.length);
    await page.close();
  });
});
