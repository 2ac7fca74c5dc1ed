#!/usr/bin/env bash
# The package as a user gets it: `npm pack`, installed with onnxruntime-node into an empty folder outside the
# repository, answers held-out views (seeded games the tests never saw, every preset at 2, 4 and the largest
# table, and random changes of them) as the Python model:auto does. Usage, from the repository root: js/tools/check-pack.sh [python] [seed]
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON=${1:-python3}
SEED=${2:-9000}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PYTHONPATH=$PWD "$PYTHON" -m agents.js_fixtures --seed "$SEED" --out "$WORK/held_out.json.gz"
TARBALL=$(cd js && npm pack --silent --pack-destination "$WORK" | tail -1)
ls -l "$WORK/$TARBALL"
mkdir "$WORK/app"
cd "$WORK/app"
npm init -y >/dev/null
ONNXRUNTIME_NODE_INSTALL=skip npm install --silent --no-audit --no-fund "$WORK/$TARBALL" onnxruntime-node@1.31.1
cat > check.mjs <<'JS'
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { READS, ProtocolError, readView } from 'shithead-bots';
import { autoBot } from 'shithead-bots/node';

const [pretrained, fixtures] = process.argv.slice(2);
const data = JSON.parse(gunzipSync(readFileSync(fixtures)).toString('utf8'));
const bot = await autoBot(pretrained);
let decisions = 0;
let worst = 0;
for (const table of data.tables) {
  for (const { view, response } of table.decisions) {
    const answer = await bot.act(view);
    if (answer.index !== response.index) throw new Error(`${table.rules} ${table.players}p: ${answer.index} != ${response.index}`);
    answer.probabilities.forEach((p, i) => { worst = Math.max(worst, Math.abs(p.probability - response.probabilities[i].probability)); });
    decisions += 1;
  }
}
for (const refusal of data.refusals) {
  const code = await bot.act(refusal.body).then(() => 'answered', (e) => (e instanceof ProtocolError ? e.code : String(e)));
  if (code !== refusal.code) throw new Error(`${refusal.case}: ${code} != ${refusal.code}`);
}
for (const changed of data.mutated) {
  let code = null;
  try { readView(changed.body); } catch (e) { code = e instanceof ProtocolError ? e.code : String(e); }
  if (code !== changed.code) throw new Error(`${changed.case}: ${code} != ${changed.code}`);
}
if (worst > 1e-5) throw new Error(`probabilities differ by up to ${worst}`);
console.log(`installed shithead-bots (reads ${JSON.stringify(READS)}): ${decisions} held-out decisions of `
  + `${data.tables.length} tables, ${data.refusals.length} refusals and ${data.mutated.length} changed views as Python answers them (probabilities within ${worst.toExponential(1)})`);
JS
node check.mjs "$OLDPWD/agents/pretrained" "$WORK/held_out.json.gz"
