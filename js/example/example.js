// The example page: one shipped model answers every view of a recorded game, shown as a table.
// It sets `window.exampleResult` ({model, answers} or {error}) for the package's browser test.
import * as ort from 'onnxruntime-web';

import { ModelBot } from '../src/index.js';

const params = new URLSearchParams(window.location.search);
const modelDir = params.get('model') ?? '../../agents/pretrained/generalist_v2';
const gameUrl = params.get('game') ?? '../test/fixtures.json.gz';
const tableIndex = Number(params.get('table') ?? 0);
const status = /** @type {HTMLElement} */ (document.getElementById('status'));

/** @param {string} url */
async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const body = url.endsWith('.gz') ? response.body?.pipeThrough(new DecompressionStream('gzip')) : response.body;
  return JSON.parse(await new Response(body).text());
}

/** @param {{kind: string, rank?: string, count?: number, seat?: number}} action */
function actionText(action) {
  if (action.kind === 'play') return `play ${action.count}x${action.rank}`;
  if (action.kind === 'face_up') return `face-up ${action.rank}`;
  if (action.kind === 'nominate') return `nominate ${action.seat}`;
  return action.kind;
}

/** @param {any[]} cells */
function row(cells) {
  const tr = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    if (cell instanceof Node) td.append(cell);
    else td.textContent = String(cell);
    tr.append(td);
  }
  return tr;
}

/** @param {{action: any, probability: number}[]} probabilities */
function bars(probabilities) {
  const list = document.createElement('div');
  for (const p of [...probabilities].sort((a, b) => b.probability - a.probability).slice(0, 5)) {
    const line = document.createElement('div');
    const bar = document.createElement('span');
    bar.className = 'bar';
    bar.style.width = `${Math.max(1, Math.round(p.probability * 120))}px`;
    line.append(bar, `${actionText(p.action)} ${p.probability.toFixed(4)}`);
    list.append(line);
  }
  return list;
}

async function main() {
  ort.env.wasm.numThreads = 1;
  const card = await fetchJson(`${modelDir}/bot.json`);
  const bot = await ModelBot.create({ ort, card, model: `${modelDir}/model.onnx` });
  const game = await fetchJson(gameUrl);
  const table = game.tables[tableIndex];
  status.textContent = `${card.name} (encoding ${bot.encodingVersion}) at ${table.rules} with ${table.players} players, seed ${table.seed}`;
  const body = /** @type {HTMLElement} */ (document.getElementById('decisions'));
  const answers = [];
  for (const [i, decision] of table.decisions.entries()) {
    const answer = await bot.act(decision.view);
    answers.push(answer);
    const view = decision.view;
    body.append(row([i, view.phase, view.seat, view.hand.join(' '), view.pile.slice(-3).join(' ') || '-',
      actionText(answer.action), bars(answer.probabilities)]));
  }
  return { model: card.name, answers };
}

main().then(
  (result) => { window.exampleResult = result; },
  (error) => {
    status.textContent = `failed: ${error.message}`;
    status.className = 'error';
    window.exampleResult = { error: String(error.stack ?? error) };
  },
);
