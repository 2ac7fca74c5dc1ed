/**
 * Node.js helpers: the shipped models of a shithead-env checkout or install, read from disk.
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { AutoBot } from './model.js';

/** @typedef {import('./registry.js').Card} Card */

/**
 * Every shipped model's card under `dir` (a `bot.json` beside a `model.onnx`, as `agents/pretrained` holds
 * them), sorted by folder: the data `model:auto` chooses from. The one reader of that data here.
 * @param {string} dir
 * @returns {Promise<{card: Card, model: string}[]>}
 */
export async function shippedModels(dir) {
  const found = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!entry.isDirectory()) continue;
    const folder = join(dir, entry.name);
    const files = await readdir(folder);
    if (files.includes('bot.json') && files.includes('model.onnx')) {
      found.push({ card: JSON.parse(await readFile(join(folder, 'bot.json'), 'utf8')), model: join(folder, 'model.onnx') });
    }
  }
  if (!found.length) throw new Error(`${dir}: no exported model (a bot.json beside a model.onnx)`);
  return found;
}

/**
 * `model:auto` over the shipped models under `dir`, on onnxruntime-node (or the `ort` given).
 * @param {string} dir
 * @param {{ort?: any, sessionOptions?: object}} [options]
 */
export async function autoBot(dir, options = {}) {
  const models = await shippedModels(dir);
  const paths = new Map(models.map(({ card, model }) => [card.name, model]));
  return new AutoBot({ cards: models.map(({ card }) => card), model: (card) => /** @type {string} */ (paths.get(card.name)), ...options });
}
