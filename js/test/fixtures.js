// The fixtures the Python side writes (`python -m agents.js_fixtures --write`), and where the shipped models are.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
export const PRETRAINED = join(here, '..', '..', 'agents', 'pretrained');
export const FIXTURES = JSON.parse(gunzipSync(readFileSync(join(here, 'fixtures.json.gz'))).toString('utf8'));
export const TOLERANCE = 1e-5;

/** Every table's recorded decisions, each with its place for messages. */
export const TABLES = FIXTURES.tables.map((table) => ({
  name: `${table.rules} ${table.players}p seed ${table.seed}`,
  decisions: table.decisions.map((decision, i) => ({ ...decision, where: `${table.rules} ${table.players}p decision ${i}` })),
}));
export const DECISIONS = TABLES.flatMap((table) => table.decisions);
