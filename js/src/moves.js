/**
 * The legal moves of the seat to act, from what that seat sees (`shithead_env/moves.py` `legal_moves`):
 * a view's `legal_actions` are checked against them.
 * @module
 */
import { FACE_UP_BASE, FLIP, MAX_COPIES, NOMINATE_BASE, PASS, PICKUP, PLAY_BASE } from './actions.js';
import { NUM_RANKS } from './cards.js';
import { topRun } from './rules.js';

/** @typedef {import('./view.js').Knowledge} Knowledge */
/** @typedef {import('./rules.js').RuleTables} RuleTables */

/**
 * May rank `r` be played when the effective top is `top` (NUM_RANKS: none)? (`RuleTables._legal_on`)
 * @param {RuleTables} t
 * @param {number} top
 * @param {number} r
 */
export function playableOn(t, top, r) {
  const { power, value } = t;
  if (top < NUM_RANKS && power.joker[top]) return power.joker[r];
  if (power.anytime[r]) return true;
  if (top === NUM_RANKS || power.reset[top]) return true;
  const mine = value[r];
  const theirs = value[top];
  if (mine === null || theirs === null) return false;
  return power.cap[top] ? mine <= theirs : mine >= theirs;
}

/**
 * The effective top's rank index, NUM_RANKS when the pile is empty or all invisible.
 * @param {RuleTables} t
 * @param {number[]} pile
 */
function topIndex(t, pile) {
  for (let i = pile.length - 1; i >= 0; i -= 1) if (!t.power.invisible[pile[i] >> 2]) return pile[i] >> 2;
  return NUM_RANKS;
}

/** @param {number[]} cards @returns {Map<number, number>} rank -> copies */
function rankCounts(cards) {
  const counts = new Map();
  for (const card of cards) counts.set(card >> 2, (counts.get(card >> 2) ?? 0) + 1);
  return counts;
}

/** @param {number} rank @param {number} count the play actions of 1..count copies of a rank */
const plays = (rank, count) => Array.from({ length: count }, (_, c) => PLAY_BASE + rank * MAX_COPIES + c);

/**
 * [fewest, most] cards of the top rank the seat may lay out of turn from `zone`; most = 0 if none.
 * @param {RuleTables} t
 * @param {number} seat
 * @param {number[]} zone
 * @param {number[]} pile
 * @param {number} nextSeat
 */
function windowRange(t, seat, zone, pile, nextSeat) {
  const rank = pile[pile.length - 1] >> 2;
  const held = zone.filter((card) => card >> 2 === rank).length;
  const runBurn = t.rules.run_burn ?? 0;
  let need = null;
  if (t.power.eight_dump[rank]) need = 1;
  else if (t.rules.snatch && runBurn) need = runBurn - topRun(pile)[1];
  if (!held || need === null || (seat === nextSeat && !t.power.eight_dump[rank])) return [0, 0];
  return held >= need ? [need, held] : [0, 0];
}

/**
 * The legal action indices of the knowledge's seat, the seat to act, in action-index order (pickup last).
 * @param {Knowledge} k
 * @returns {number[]}
 */
export function legalMoves(k) {
  const t = k.rules;
  const zone = k.hand.length ? k.hand : k.faceUp[k.seat];
  if (k.phase === 'play') {
    if (!zone.length) return k.pile.length && t.rules.voluntary_pickup ? [FLIP, PICKUP] : [FLIP];
    const counts = rankCounts(zone);
    if (k.forcedRank !== null) return plays(k.forcedRank, counts.get(k.forcedRank) ?? 0);
    const top = topIndex(t, k.pile);
    const actions = [...counts.keys()].sort((a, b) => a - b).filter((r) => playableOn(t, top, r))
      .flatMap((r) => plays(r, /** @type {number} */ (counts.get(r))));
    if (k.pile.length && (!actions.length || t.rules.voluntary_pickup)) actions.push(PICKUP);
    return actions;
  }
  if (k.phase === 'interrupt') {
    const [low, high] = windowRange(t, k.seat, zone, k.pile, /** @type {{next: number}} */ (k.window).next);
    const rank = k.pile[k.pile.length - 1] >> 2;
    return [...(high ? plays(rank, high).slice(low - 1) : []), PASS];
  }
  if (k.phase === 'nominate') return k.active.flatMap((on, s) => (on ? [NOMINATE_BASE + s] : []));
  if (k.phase === 'swap') return [...new Set(k.hand.map((card) => card >> 2))].sort((a, b) => a - b).map((r) => FACE_UP_BASE + r);
  return [];
}

/**
 * Whether the hidden `cards` can be matched one to one into the narrowed `masks` (each mask a card of a rank
 * it allows): Kuhn's augmenting paths (`shithead_env.inference.fits`).
 * @param {number[]} masks
 * @param {number[]} cards card codes
 */
export function fits(masks, cards) {
  if (masks.length > cards.length) return false;
  /** @type {(number | null)[]} */
  const owner = cards.map(() => null);
  /** @param {number} m @param {boolean[]} seen @returns {boolean} */
  const place = (m, seen) => {
    for (let c = 0; c < cards.length; c += 1) {
      if (!((masks[m] >> (cards[c] >> 2)) & 1) || seen[c]) continue;
      seen[c] = true;
      const held = owner[c];
      if (held === null || place(held, seen)) {
        owner[c] = m;
        return true;
      }
    }
    return false;
  };
  return masks.every((_, m) => place(m, cards.map(() => false)));
}
