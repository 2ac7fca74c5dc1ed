// The view parser, the encoders and the mask reproduce the Python side's fixtures bit for bit.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { encode, layout, legalMask, ProtocolError, readView } from '../src/index.js';
import { DECISIONS, FIXTURES, TABLES } from './fixtures.js';

test('fixtures cover every preset at 2, 4 and the largest table, and both encodings', () => {
  const tables = FIXTURES.tables.map((t) => `${t.rules}:${t.players}`);
  for (const expected of ['dead_last:2', 'dead_last:4', 'dead_last:5', 'pub:2', 'pub:4', 'online_classic:10', 'harrogate:10', 'power_deck:5']) {
    assert.ok(tables.includes(expected), expected);
  }
  assert.deepEqual(new Set(DECISIONS.map((d) => d.encoding)), new Set([1, 2]));
});

for (const table of TABLES) {
  test(`observations and masks bit for bit: ${table.name}`, () => {
    for (const decision of table.decisions) checkDecision(decision);
  });
}

/** @param {any} decision */
function checkDecision(decision) {
  const knowledge = readView(decision.view);
  for (const [version, cells] of Object.entries(decision.observations)) {
    const observation = encode(knowledge, Number(version));
    const expected = new Float32Array(layout(Number(version)).size);
    for (const [cell, value] of cells) expected[cell] = value;
    const differ = [];
    for (let i = 0; i < expected.length; i += 1) if (!Object.is(observation[i], expected[i])) differ.push([i, observation[i], expected[i]]);
    assert.deepEqual(differ, [], `${decision.where}, version ${version}: cells [index, js, python] differ`);
  }
  const mask = [...legalMask(knowledge)].flatMap((on, i) => (on ? [i] : []));
  assert.deepEqual(mask, decision.mask, decision.where);
}

for (const refusal of FIXTURES.refusals) {
  test(`refused with the Python code: ${refusal.case}`, () => {
    assert.throws(() => readView(refusal.body), (error) => {
      assert.ok(error instanceof ProtocolError, String(error));
      assert.equal(error.code, refusal.code, error.message);
      return true;
    });
  });
}

test('mutated views: refused exactly where Python refuses them, with its codes', () => {
  const verdict = (body) => {
    try {
      readView(body);
      return null;
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      return error.code;
    }
  };
  const differ = FIXTURES.mutated.map((m, i) => [i, m.case, verdict(m.body), m.code]).filter(([, , js, python]) => js !== python);
  assert.deepEqual(differ, [], '[case, change, js, python]');
  assert.ok(FIXTURES.mutated.some((m) => m.code === null) && FIXTURES.mutated.some((m) => m.code === 'invalid_view'));
});
