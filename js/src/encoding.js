/**
 * The observation encoders (`shithead_env/encodings/v1.py`, `v2.py`) and the legal-action mask, bit for bit.
 *
 * Each version's field layout comes from the Python package (`spec.js`); the cells are written here in
 * float32, as the Python encoders write them (version 2 then divides its linear cells by their bound in
 * float32, which a double division rounded to float32 matches exactly).
 * @module
 */
import { MAX_COPIES, MAX_SEATS, NUM_ACTIONS, PICKUP, PLAY_BASE } from './actions.js';
import { NUM_RANKS, RANKS } from './cards.js';
import { constraint, deckCounts, decksFor, topRun } from './rules.js';
import { SPEC } from './spec.js';

/** @typedef {import('./view.js').Knowledge} Knowledge */
/** @typedef {{version: number, size: number, offsets: Record<string, number>, divisor: Float32Array | null}} Layout */

const R = NUM_RANKS;
const S = MAX_SEATS;
/** The decision cap version 2 scales `decisions` by (`shithead_env.rules.DEFAULT_MAX_DECISIONS`). */
const DEFAULT_MAX_DECISIONS = SPEC.default_max_decisions;
/** The bound of version 2's size cells (`shithead_env.encodings.layout.MAX_CARDS`). */
const MAX_CARDS = SPEC.max_cards;
/** The encoding versions this package encodes. @type {readonly number[]} */
export const ENCODING_VERSIONS = Object.freeze(Object.keys(SPEC.encodings).map(Number));

/** @type {Map<number, Layout>} */
const layouts = new Map();

/**
 * The layout of an encoding version: its size and each field's offset.
 * @param {number} version
 * @returns {Layout}
 */
export function layout(version) {
  let found = layouts.get(version);
  if (found) return found;
  const spec = SPEC.encodings[String(version)];
  if (!spec) throw new Error(`unknown observation encoding version ${version}; known versions: ${ENCODING_VERSIONS.join(', ')}`);
  /** @type {Record<string, number>} */
  const offsets = {};
  const divisor = new Float32Array(spec.size).fill(1);
  let offset = 0;
  for (const [name, size, high, scale] of spec.fields) {
    offsets[name] = offset;
    if (scale === 'linear') divisor.fill(high, offset, offset + size);
    offset += size;
  }
  if (offset !== spec.size) throw new Error(`encoding version ${version}: fields add up to ${offset}, not ${spec.size}`);
  found = { version, size: spec.size, offsets, divisor: version === 1 ? null : divisor };
  layouts.set(version, found);
  return found;
}

/** @param {number} x @param {number} n */
const mod = (x, n) => ((x % n) + n) % n;

/**
 * The static cells: seats present and the rules (`layout.fill_rules`).
 * @param {Float32Array} obs
 * @param {Record<string, number>} at
 * @param {Knowledge} k
 */
function fillRules(obs, at, k) {
  const rules = k.rules.rules;
  obs.fill(1, at.seat_present, at.seat_present + k.numPlayers);
  SPEC.powers.forEach((/** @type {string} */ power, /** @type {number} */ p) => {
    k.rules.power[power].forEach((flag, r) => { obs[at.rule_powers + p * R + r] = flag ? 1 : 0; });
  });
  rules.rank_order.forEach((/** @type {string} */ rank, /** @type {number} */ position) => {
    obs[at.rank_value + RANKS.indexOf(rank)] = (position + 1) / rules.rank_order.length;
  });
  obs[at.run_burn] = rules.run_burn ?? 0;
  obs[at.snatch] = rules.snatch ? 1 : 0;
  obs[at.face_up_into_hand] = rules.face_up === 'take_into_hand' ? 1 : 0;
  obs[at.voluntary_pickup] = rules.voluntary_pickup ? 1 : 0;
  obs[at.decks] = decksFor(k.rules, k.numPlayers);
  obs[at.jokers_per_deck] = rules.jokers_per_deck;
}

/**
 * The one-hot cells every version writes the same way (`layout.write_table`); returns the top run's length.
 * @param {Float32Array} obs
 * @param {Record<string, number>} at
 * @param {Knowledge} k
 */
function writeTable(obs, at, k) {
  const n = k.numPlayers;
  const seat = k.seat;
  k.finishOrder.forEach((s, position) => { obs[at.finish_place + mod(s - seat, n) * S + position] = 1; });
  const [kind, top] = constraint(k.rules, k.pile);
  obs[at.effective_top + (top === null ? R : top)] = 1;
  obs[at.constraint + SPEC.constraints.indexOf(kind)] = 1;
  const [runRank, run] = topRun(k.pile);
  if (run && runRank !== null) obs[at.top_run_rank + runRank] = 1;
  if (k.forcedRank !== null) obs[at.forced_rank + k.forcedRank] = 1;
  obs[at.phase + SPEC.phases.indexOf(k.phase)] = 1;
  if (k.current !== null) obs[at.actor + mod(k.current - seat, n)] = 1;
  if (k.window !== null) {
    obs[at.window_played_by + mod(k.window.playedBy - seat, n)] = 1;
    obs[at.window_next + mod(k.window.next - seat, n)] = 1;
    for (const s of k.window.queue) obs[at.window_queue + mod(s - seat, n)] = 1;
  }
  return run;
}

/**
 * Where `zone_of` stands in the zones' one-hot: hand, face-up, face-down, none.
 * @param {number} hand @param {number} up @param {number} down
 */
const zoneIndex = (hand, up, down) => (hand ? 0 : up ? 1 : down ? 2 : 3);

/** @param {number} count */
const sqrtCell = (count) => Math.sqrt(count / MAX_CARDS);

/**
 * Version 1: raw counts, no inference.
 * @param {Knowledge} k
 * @param {Layout} lay
 */
function encodeV1(k, lay) {
  const at = lay.offsets;
  const obs = new Float32Array(lay.size);
  fillRules(obs, at, k);
  const n = k.numPlayers;
  for (const [base, cards] of /** @type {[number, number[]][]} */ ([[at.hand, k.hand], [at.pile, k.pile], [at.burned, k.burned]])) {
    for (const card of cards) obs[base + (card >> 2)] += 1;
  }
  for (let slot = 0; slot < n; slot += 1) {
    const s = (k.seat + slot) % n;
    for (const card of k.faceUp[s]) obs[at.face_up + slot * R + (card >> 2)] += 1;
    for (const card of k.known[s]) obs[at.known + slot * R + (card >> 2)] += 1;
    obs[at.zone + 4 * slot + zoneIndex(k.handSizes[s], k.faceUp[s].length, k.faceDown[s])] = 1;
    if (k.active[s]) obs[at.active + slot] = 1;
    obs[at.hand_size + slot] = k.handSizes[s];
    obs[at.face_down + slot] = k.faceDown[s];
  }
  const run = writeTable(obs, at, k);
  obs[at.pile_size] = k.pile.length;
  obs[at.top_run_length] = run;
  obs[at.draw_pile_size] = k.drawSize;
  obs[at.direction] = k.direction;
  obs[at.decisions] = k.decisions / k.maxDecisions;
  return obs;
}

/**
 * Version 2: version 1's cells scaled by their bounds, plus unseen cards, hidden hand cards, the ranks they
 * may be, and the legal ranks.
 * @param {Knowledge} k
 * @param {Layout} lay
 */
function encodeV2(k, lay) {
  const at = lay.offsets;
  const obs = new Float32Array(lay.size);
  fillRules(obs, at, k);
  const n = k.numPlayers;
  const deck = deckCounts(k.rules, n);
  const unseen = [...deck];
  for (const [base, cards] of /** @type {[number, number[]][]} */ ([[at.hand, k.hand], [at.pile, k.pile], [at.burned, k.burned]])) {
    for (const card of cards) {
      obs[base + (card >> 2)] += 1;
      unseen[card >> 2] -= 1;
    }
  }
  for (let slot = 0; slot < n; slot += 1) {
    const s = (k.seat + slot) % n;
    const up = k.faceUp[s];
    for (const card of up) {
      obs[at.face_up + slot * R + (card >> 2)] += 1;
      unseen[card >> 2] -= 1;
    }
    for (const card of k.known[s]) {
      obs[at.known + slot * R + (card >> 2)] += 1;
      if (slot) unseen[card >> 2] -= 1; // the observer's own known cards are in its hand, counted already
    }
    const size = k.handSizes[s];
    const down = k.faceDown[s];
    obs[at.zone + 4 * slot + zoneIndex(size, up.length, down)] = 1;
    if (k.active[s]) obs[at.active + slot] = 1;
    const hidden = size - k.known[s].length;
    obs[at.hand_size + slot] = sqrtCell(size);
    obs[at.hidden_hand + slot] = sqrtCell(hidden);
    obs[at.cards_left + slot] = sqrtCell(size + up.length + down);
    obs[at.face_down + slot] = down;
    if (hidden) {
      const masks = k.narrowed[s];
      const free = hidden - masks.length;
      const counts = deck.map((copies) => (copies ? free : 0));
      for (const mask of masks) for (let r = 0; r < R; r += 1) if ((mask >> r) & 1) counts[r] += 1;
      counts.forEach((count, r) => { obs[at.may_hold + slot * R + r] = count / hidden; });
    }
  }
  obs.set(unseen, at.unseen);
  for (const index of k.legal) {
    if (index < PICKUP) obs[at.legal_ranks + Math.floor((index - PLAY_BASE) / MAX_COPIES)] = 1;
    else if (index === PICKUP) obs[at.legal_pickup] = 1;
  }
  const run = writeTable(obs, at, k);
  obs[at.pile_size] = sqrtCell(k.pile.length);
  obs[at.top_run_length] = run;
  obs[at.draw_pile_size] = sqrtCell(k.drawSize);
  obs[at.direction] = k.direction;
  obs[at.decisions] = Math.sqrt(Math.min(k.decisions, DEFAULT_MAX_DECISIONS) / DEFAULT_MAX_DECISIONS);
  const divisor = /** @type {Float32Array} */ (lay.divisor);
  for (let i = 0; i < obs.length; i += 1) obs[i] /= divisor[i];
  return obs;
}

const ENCODERS = { 1: encodeV1, 2: encodeV2 };

/**
 * The float32 observation of the knowledge's seat in encoding `version` (`shithead_env.encode_knowledge`).
 * @param {Knowledge} k
 * @param {number} version
 * @returns {Float32Array}
 */
export function encode(k, version) {
  const lay = layout(version);
  const encoder = ENCODERS[/** @type {1 | 2} */ (version)];
  if (!encoder) throw new Error(`encoding version ${version} has a layout but no encoder in this package`);
  return encoder(k, lay);
}

/**
 * The legal-action mask over the action layout (`shithead_env.legal_mask`): 1 on each legal action.
 * @param {Knowledge} k
 * @returns {Uint8Array}
 */
export function legalMask(k) {
  const mask = new Uint8Array(NUM_ACTIONS);
  for (const index of k.legal) mask[index] = 1;
  return mask;
}
