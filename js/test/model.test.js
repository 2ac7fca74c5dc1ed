// model:auto in Node.js (onnxruntime-node) answers every recorded view as the Python model:auto did.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import * as ort from 'onnxruntime-node';

import { ProtocolError } from '../src/index.js';
import { autoBot } from '../src/node.js';
import { FIXTURES, PRETRAINED, TABLES, TOLERANCE } from './fixtures.js';

const bot = await autoBot(PRETRAINED, { ort });

for (const table of TABLES) {
  test(`model:auto answers as in Python: ${table.name}`, async () => {
    for (const decision of table.decisions) await checkAnswer(decision);
  });
}

/** @param {any} decision */
async function checkAnswer(decision) {
  const answer = await bot.act(decision.view);
  const expected = decision.response;
  assert.equal((await bot.modelFor(decision.view.rules, decision.view.num_players)).card.name, decision.model);
  assert.deepEqual(answer.action, expected.action, decision.where);
  assert.equal(answer.index, expected.index);
  assert.equal(answer.protocol, expected.protocol);
  assert.equal(answer.bot, expected.bot);
  assert.deepEqual(answer.probabilities.map((p) => [p.index, p.action]), expected.probabilities.map((p) => [p.index, p.action]));
  answer.probabilities.forEach((p, i) => {
    assert.ok(Math.abs(p.probability - expected.probabilities[i].probability) <= TOLERANCE,
      `${decision.where}, action ${p.index}: ${p.probability} vs ${expected.probabilities[i].probability}`);
  });
}

test('refusals: the same error codes through the bot', async () => {
  for (const refusal of FIXTURES.refusals) {
    await assert.rejects(bot.act(refusal.body), (error) => error instanceof ProtocolError && error.code === refusal.code, refusal.case);
  }
});

test("a model file that is not the one its card names is refused, unless verify is false", async () => {
  const { readFile } = await import('node:fs/promises');
  const { ModelBot } = await import('../src/index.js');
  const card = JSON.parse(await readFile(`${PRETRAINED}/generalist_v2/bot.json`, 'utf8'));
  const other = await readFile(`${PRETRAINED}/generalist/model.onnx`);
  await assert.rejects(ModelBot.create({ ort, card, model: other }), /sha256/);
  await assert.rejects(ModelBot.create({ ort, card: { ...card, encoding_version: 3 }, model: other }), /encoding_version 3/);
  const mine = await readFile(`${PRETRAINED}/generalist_v2/model.onnx`);
  const renamed = { ...card, model: { ...card.model, sha256: '0'.repeat(64) } };
  await assert.rejects(ModelBot.create({ ort, card: renamed, model: mine }), /sha256/);
  const unchecked = await ModelBot.create({ ort, card: renamed, model: mine, verify: false });
  assert.equal(unchecked.encodingVersion, 2);
});
