// Which models model:auto reads: a registry.json where the folder has one, else every exported model folder.
import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { chooseCard } from '../src/index.js';
import { shippedModels } from '../src/node.js';
import { FIXTURES, PRETRAINED } from './fixtures.js';

test('without a registry: every folder holding bot.json and model.onnx, sorted', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'shithead-bots-'));
  try {
    for (const name of ['generalist_v2', 'dead_last_4p', 'value_pub_2p']) await symlink(join(PRETRAINED, name), join(dir, name));
    await writeFile(join(dir, 'notes.txt'), 'not a model');
    assert.deepEqual((await shippedModels(dir)).map(({ card }) => card.name), ['dead_last_4p', 'generalist_v2']);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('with a registry: only its policies marked auto', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'shithead-bots-'));
  try {
    for (const name of ['generalist', 'generalist_v2', 'four_players']) await symlink(join(PRETRAINED, name), join(dir, name));
    const networks = [
      { name: 'generalist_v2', kind: 'policy', directory: 'generalist_v2', auto: true },
      { name: 'four_players', kind: 'policy', directory: 'four_players', auto: false },
      { name: 'generalist', kind: 'policy', directory: 'generalist', auto: true },
      { name: 'value_pub_2p', kind: 'value', directory: 'value_pub_2p', auto: true },
    ];
    await writeFile(join(dir, 'registry.json'), JSON.stringify({ networks }));
    const models = await shippedModels(dir);
    assert.deepEqual(models.map(({ card }) => card.name), ['generalist', 'generalist_v2']);
    assert.equal(chooseCard(models.map(({ card }) => card), 'pub', 4).name, 'generalist_v2');
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('chooseCard seats the model the Python model:auto seated at every fixture table', async () => {
  const cards = (await shippedModels(PRETRAINED)).map(({ card }) => card);
  for (const table of FIXTURES.tables) {
    assert.equal(chooseCard(cards, table.rules, table.players).name, table.decisions[0].model, `${table.rules} ${table.players}p`);
  }
});
