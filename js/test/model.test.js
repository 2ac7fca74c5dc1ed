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
