/**
 * Node.js helpers: the shipped models of a shithead-env checkout or install, read from disk.
 * @module
 */
import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { AutoBot } from './model.js';
import { registryPolicies } from './registry.js';

/** @typedef {import('./registry.js').Card} Card */

/** @param {string} path */
const exists = (path) => access(path).then(() => true, () => false);

/**
 * The models `model:auto` chooses from under `dir` (as `agents/pretrained` holds them), each its card and
 * its `model.onnx` path: the policies its `registry.json` marks `auto` where it has one, else every folder
 * with a `bot.json` beside a `model.onnx`; sorted by folder (`agents.onnx_bot.auto_model_dirs`).
 * @param {string} dir
 * @returns {Promise<{card: Card, model: string}[]>}
 */
export async function shippedModels(dir) {
  let folders;
  if (await exists(join(dir, 'registry.json'))) {
    folders = registryPolicies(JSON.parse(await readFile(join(dir, 'registry.json'), 'utf8')));
  } else {
    folders = [];
    for (const name of await readdir(dir)) { // a folder or a link to one
      if ((await exists(join(dir, name, 'bot.json'))) && (await exists(join(dir, name, 'model.onnx')))) folders.push(name);
    }
    folders.sort();
  }
  if (!folders.length) throw new Error(`${dir}: no exported model (a bot.json beside a model.onnx)`);
  return Promise.all(folders.map(async (folder) => ({
    card: JSON.parse(await readFile(join(dir, folder, 'bot.json'), 'utf8')),
    model: join(dir, folder, 'model.onnx'),
  })));
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
