/**
 * The presets' rules, read from the Python package's YAML (via `spec.js`), compiled to per-rank tables,
 * and what the discard pile asks of the next play (`shithead_env/pile.py`).
 * @module
 */
import { RANKS } from './cards.js';
import { SPEC } from './spec.js';

/**
 * @typedef {object} RuleTables
 * @property {string} name the preset
 * @property {number} minPlayers
 * @property {number} maxPlayers
 * @property {Record<string, any>} rules the preset's rules mapping, as `Rules.to_dict` writes it
 * @property {Record<string, boolean[]>} power per power name: a flag per rank index
 * @property {(number | null)[]} value per rank index: its position in `rank_order`, null for power-only ranks
 */

/** The presets this package knows (`shithead_env.PRESETS`). @type {readonly string[]} */
export const PRESETS = Object.freeze(Object.keys(SPEC.presets));

/** @type {Map<string, RuleTables>} */
const compiled = new Map();

/**
 * The compiled rules of a preset; throws for a name that is not one.
 * @param {string} name
 * @returns {RuleTables}
 */
export function presetTables(name) {
  let tables = compiled.get(name);
  if (tables) return tables;
  const rules = SPEC.presets[name];
  if (!rules) throw new Error(`unknown rules preset ${JSON.stringify(name)}; presets: ${PRESETS.join(', ')}`);
  /** @type {Record<string, boolean[]>} */
  const power = {};
  for (const p of SPEC.powers) power[p] = RANKS.map((rank) => (rules.powers[rank] ?? []).includes(p));
  tables = {
    name,
    minPlayers: rules.players.min,
    maxPlayers: rules.players.max,
    rules,
    power,
    value: RANKS.map((rank) => (rules.rank_order.includes(rank) ? rules.rank_order.indexOf(rank) : null)),
  };
  compiled.set(name, tables);
  return tables;
}

/**
 * Decks shuffled together at a table of `players` (`Rules.decks_for`).
 * @param {RuleTables} tables
 * @param {number} players
 */
export function decksFor(tables, players) {
  let decks = tables.rules.decks;
  for (const [threshold, count] of Object.entries(tables.rules.decks_from_players)) {
    if (players >= Number(threshold)) decks = count;
  }
  return decks;
}

/**
 * Copies of each rank in the deck of a table of `players`.
 * @param {RuleTables} tables
 * @param {number} players
 * @returns {number[]}
 */
export function deckCounts(tables, players) {
  const decks = decksFor(tables, players);
  return RANKS.map((rank) => decks * (rank === 'X' ? tables.rules.jokers_per_deck : 4));
}

/**
 * [rank index, length] of the run of equal ranks on top of the pile; [null, 0] when it is empty.
 * @param {number[]} pile card codes, bottom first
 * @returns {[number | null, number]}
 */
export function topRun(pile) {
  if (!pile.length) return [null, 0];
  const rank = pile[pile.length - 1] >> 2;
  let run = 0;
  for (let i = pile.length - 1; i >= 0 && pile[i] >> 2 === rank; i -= 1) run += 1;
  return [rank, run];
}

/**
 * [one of `SPEC.constraints`, effective top rank or null]: the rule the pile imposes on the next play.
 * @param {RuleTables} tables
 * @param {number[]} pile
 * @returns {[string, number | null]}
 */
export function constraint(tables, pile) {
  let top = null;
  for (let i = pile.length - 1; i >= 0; i -= 1) {
    if (!tables.power.invisible[pile[i] >> 2]) {
      top = pile[i] >> 2;
      break;
    }
  }
  if (top === null) return ['empty', null];
  if (tables.power.joker[top]) return ['joker', top];
  if (tables.power.reset[top]) return ['reset', top];
  return [tables.power.cap[top] ? 'at_most' : 'at_least', top];
}
