/**
 * Ranks and card codes, as the Python engine numbers them: a card is `rank * 4 + suit`.
 * @module
 */
import { SPEC } from './spec.js';

/** Rank names in rank-index order: `2`..`A`, then `X` (Joker). @type {readonly string[]} */
export const RANKS = Object.freeze([...SPEC.ranks]);
export const NUM_RANKS = RANKS.length;
const SUITS = 'CDHS';
const JOKER_SUITS = 'RB';

/**
 * The code of a card named like `KS`, `TH`, `XR` (the view schema has checked the name).
 * @param {string} name
 * @returns {number}
 */
export function cardCode(name) {
  const rank = RANKS.indexOf(name[0]);
  const suit = (name[0] === 'X' ? JOKER_SUITS : SUITS).indexOf(name[1]);
  if (rank < 0 || suit < 0 || name.length !== 2) throw new Error(`unknown card ${JSON.stringify(name)}`);
  return rank * 4 + suit;
}

/**
 * The rank index of a rank name (`2`..`A`, `X`).
 * @param {string} name
 * @returns {number}
 */
export function rankIndex(name) {
  const index = RANKS.indexOf(name);
  if (index < 0) throw new Error(`unknown rank ${JSON.stringify(name)}`);
  return index;
}
