/**
 * The fixed integer action layout shared by every preset (`shithead_env/actions.py`).
 * @module
 */
import { NUM_RANKS, RANKS, rankIndex } from './cards.js';
import { SPEC } from './spec.js';

/** @typedef {{kind: 'play', rank: string, count: number} | {kind: 'face_up', rank: string}
 *   | {kind: 'nominate', seat: number} | {kind: 'pickup' | 'flip' | 'pass'}} Action */

export const ACTION_LAYOUT_VERSION = SPEC.action_layout_version;
export const MAX_COPIES = SPEC.max_copies;
export const MAX_SEATS = SPEC.max_seats;
export const PLAY_BASE = 0;
export const PICKUP = PLAY_BASE + NUM_RANKS * MAX_COPIES;
export const FLIP = PICKUP + 1;
export const FACE_UP_BASE = FLIP + 1;
export const NOMINATE_BASE = FACE_UP_BASE + NUM_RANKS;
export const PASS = NOMINATE_BASE + MAX_SEATS;
export const NUM_ACTIONS = PASS + 1;
if (NUM_ACTIONS !== SPEC.num_actions) throw new Error(`action layout: ${NUM_ACTIONS} actions, the spec says ${SPEC.num_actions}`);

/**
 * The index of an action in the layout (the model's output cell).
 * @param {Action} action
 * @returns {number}
 */
export function actionIndex(action) {
  switch (action.kind) {
    case 'play':
      if (!Number.isInteger(action.count) || action.count < 1 || action.count > MAX_COPIES) {
        throw new Error(`play count must be 1..${MAX_COPIES}, got ${JSON.stringify(action.count)}`);
      }
      return PLAY_BASE + rankIndex(action.rank) * MAX_COPIES + action.count - 1;
    case 'pickup': return PICKUP;
    case 'flip': return FLIP;
    case 'face_up': return FACE_UP_BASE + rankIndex(action.rank);
    case 'nominate':
      if (!Number.isInteger(action.seat) || action.seat < 0 || action.seat >= MAX_SEATS) {
        throw new Error(`nominate seat must be 0..${MAX_SEATS - 1}, got ${JSON.stringify(action.seat)}`);
      }
      return NOMINATE_BASE + action.seat;
    case 'pass': return PASS;
    default: throw new Error(`unknown action kind ${JSON.stringify(/** @type {any} */ (action).kind)}`);
  }
}

/**
 * The action at an index of the layout, in the protocol's JSON form.
 * @param {number} index
 * @returns {Action}
 */
export function actionAt(index) {
  if (!Number.isInteger(index) || index < 0 || index >= NUM_ACTIONS) {
    throw new Error(`action index must be an integer 0..${NUM_ACTIONS - 1}, got ${index}`);
  }
  if (index < PICKUP) {
    const offset = index - PLAY_BASE;
    return { kind: 'play', rank: RANKS[Math.floor(offset / MAX_COPIES)], count: (offset % MAX_COPIES) + 1 };
  }
  if (index === PICKUP) return { kind: 'pickup' };
  if (index === FLIP) return { kind: 'flip' };
  if (index < NOMINATE_BASE) return { kind: 'face_up', rank: RANKS[index - FACE_UP_BASE] };
  if (index < PASS) return { kind: 'nominate', seat: index - NOMINATE_BASE };
  return { kind: 'pass' };
}
