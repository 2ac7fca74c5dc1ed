/**
 * The JSON bot protocol's request side: a seat's view checked and read into a `Knowledge`
 * (what the encoders and the mask read), refusing what the Python handler refuses, with its error codes.
 * @module
 */
import { actionAt, actionIndex } from './actions.js';
import { NUM_RANKS, cardCode, rankIndex } from './cards.js';
import { fits, legalMoves } from './moves.js';
import { PRESETS, decksFor, presetTables } from './rules.js';
import { schemaError } from './schema.js';
import { SPEC } from './spec.js';

/** @typedef {import('./rules.js').RuleTables} RuleTables */

/**
 * Everything one seat may know, as card codes (`shithead_env.Knowledge`).
 * @typedef {object} Knowledge
 * @property {RuleTables} rules
 * @property {number} seat
 * @property {number} numPlayers
 * @property {string} phase
 * @property {number | null} current
 * @property {number} direction
 * @property {number} dealer
 * @property {number} decisions
 * @property {number} maxDecisions
 * @property {number[]} hand the seat's own hand
 * @property {number[]} handSizes per seat
 * @property {number[][]} faceUp per seat
 * @property {number[]} faceDown per seat: a count
 * @property {number[][]} known per seat: the hand cards everyone has seen
 * @property {number[][]} narrowed per seat: rank bitmasks of hidden hand cards public history narrows
 * @property {boolean[]} active per seat: not in `finishOrder`
 * @property {number[]} pile bottom first
 * @property {number[]} burned
 * @property {number} drawSize
 * @property {number[]} finishOrder
 * @property {{playedBy: number, next: number, queue: number[]} | null} window
 * @property {number | null} forcedRank
 * @property {number[]} legal the legal action indices, in action-index order (pickup last), as the rules give them
 */

/** The protocol version this package speaks (`agents.protocol.PROTOCOL_VERSION`). */
export const PROTOCOL_VERSION = SPEC.protocol_version;
/** The view format version it reads (`shithead_env.knowledge.VIEW_VERSION`). */
export const VIEW_VERSION = SPEC.view_version;
/** Error code -> HTTP-style status, as the Python protocol defines them. @type {Readonly<Record<string, number>>} */
export const ERRORS = Object.freeze({ ...SPEC.errors });
const TABLE_CARDS = 3;
const ALL_RANKS = (1 << NUM_RANKS) - 1;

/** A request that cannot be answered with an action; `code` is a key of `ERRORS`. */
export class ProtocolError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    if (!(code in ERRORS)) throw new Error(`unknown protocol error code ${code}`);
    this.name = 'ProtocolError';
    this.code = code;
    this.status = ERRORS[code];
  }

  /** The protocol's error body. */
  body() {
    return { protocol: PROTOCOL_VERSION, error: { code: this.code, message: this.message } };
  }
}

/**
 * A request body (JSON text, its UTF-8 bytes, or an already parsed object) as a parsed object:
 * `body_too_large`, `malformed_json` or `invalid_view` otherwise.
 * @param {string | Uint8Array | object} body
 * @returns {Record<string, any>}
 */
export function parseBody(body) {
  let data = body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    if (bytes.length > SPEC.max_body_bytes) {
      throw new ProtocolError('body_too_large', `the body has ${bytes.length} bytes; the limit is ${SPEC.max_body_bytes}`);
    }
    try {
      data = JSON.parse(typeof body === 'string' ? body : new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch (error) {
      throw new ProtocolError('malformed_json', `the body is not valid JSON: ${/** @type {Error} */ (error).message}`);
    }
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const kind = Array.isArray(data) ? 'list' : data === null ? 'null' : typeof data;
    throw new ProtocolError('invalid_view', `the body must be a JSON object (a seat's view), got ${kind}`);
  }
  return /** @type {Record<string, any>} */ (data);
}

/**
 * The knowledge of a view whose seat is asked to act, checked in the Python handler's order: the schema
 * (`invalid_view`), the rules (`unsupported_rules` unless in `rules`), the seat count, that the seat has a
 * decision (`no_legal_action`), then the view's consistency (`invalid_view`).
 * @param {string | Uint8Array | object} body the view, as JSON text, bytes or an object
 * @param {readonly string[]} [rules] the presets the caller plays (default: every preset)
 * @returns {Knowledge}
 */
export function readView(body, rules = PRESETS) {
  const view = parseBody(body);
  const error = schemaError(SPEC.view_schema, view, 'view');
  if (error) throw new ProtocolError('invalid_view', error);
  if (!rules.includes(view.rules)) {
    throw new ProtocolError('unsupported_rules', `rules ${JSON.stringify(view.rules)} are not supported; this bot plays: ${rules.join(', ')}`);
  }
  const n = view.num_players;
  if (view.players.length !== n) {
    throw new ProtocolError('invalid_view', `num_players is ${n} but players lists ${view.players.length} seats`);
  }
  if (view.phase === 'over' || view.current !== view.seat || !view.legal_actions.length) {
    throw new ProtocolError('no_legal_action', `seat ${view.seat} has no decision to make (phase ${JSON.stringify(view.phase)}, `
      + `current seat ${view.current}, ${view.legal_actions.length} legal action(s)); send the view of the seat to act`);
  }
  try {
    return knowledgeOf(view);
  } catch (fault) {
    if (!(fault instanceof ViewError)) throw fault;
    throw new ProtocolError('invalid_view', `the view is not a consistent position: ${fault.message}`);
  }
}

/** A view that the schema allows but no position fits. */
class ViewError extends Error {}

/**
 * @param {boolean} ok
 * @param {string} message
 */
function check(ok, message) {
  if (!ok) throw new ViewError(message);
}

/**
 * The knowledge of a schema-valid view, refusing the inconsistencies checked here (a subset of
 * `Knowledge.from_view`'s: counts, seats, the table cards, the hidden cards, distinct legal actions).
 * @param {Record<string, any>} view
 * @returns {Knowledge}
 */
function knowledgeOf(view) {
  const tables = presetTables(view.rules);
  const n = view.num_players;
  check(tables.minPlayers <= n && n <= tables.maxPlayers,
    `rules ${JSON.stringify(view.rules)} allow ${tables.minPlayers}-${tables.maxPlayers} players, got ${n}`);
  /** @param {any} seat @param {string} where */
  const seatOf = (seat, where) => {
    check(seat < n, `${where} must be a seat 0..${n - 1}, got ${seat}`);
    return /** @type {number} */ (seat);
  };
  const players = /** @type {Record<string, any>[]} */ (view.players);
  const finishOrder = view.finish_order.map((/** @type {number} */ s, /** @type {number} */ i) => seatOf(s, `view.finish_order[${i}]`));
  const window = view.window === null ? null : {
    playedBy: seatOf(view.window.played_by, 'view.window.played_by'),
    next: seatOf(view.window.next, 'view.window.next'),
    queue: view.window.queue.map((/** @type {number} */ s, /** @type {number} */ i) => seatOf(s, `view.window.queue[${i}]`)),
  };
  /** @type {Knowledge} */
  const k = {
    dealer: seatOf(view.dealer, 'view.dealer'),
    rules: tables,
    seat: seatOf(view.seat, 'view.seat'),
    numPlayers: n,
    phase: view.phase,
    current: view.current === null ? null : seatOf(view.current, 'view.current'),
    direction: view.direction,
    decisions: view.decisions,
    maxDecisions: view.max_decisions,
    hand: view.hand.map(cardCode),
    handSizes: players.map((p) => p.hand_size),
    faceUp: players.map((p) => p.face_up.map(cardCode)),
    faceDown: players.map((p) => p.face_down),
    known: players.map((p) => p.known.map(cardCode)),
    narrowed: players.map((p, s) => (p.narrowed ?? []).map((/** @type {string[]} */ names, /** @type {number} */ i) => {
      const mask = names.reduce((m, name) => m | (1 << rankIndex(name)), 0);
      check(mask !== ALL_RANKS, `view.players[${s}].narrowed[${i}] must name distinct ranks, not every rank`);
      return mask;
    })),
    active: players.map((_, s) => !finishOrder.includes(s)),
    pile: view.pile.map(cardCode),
    burned: view.burned.map(cardCode),
    drawSize: view.draw_pile,
    finishOrder,
    window,
    forcedRank: view.forced_rank === null ? null : rankIndex(view.forced_rank),
    legal: view.legal_actions.map(actionIndex),
  };
  if (view.opener !== undefined && view.opener !== null) seatOf(view.opener, 'view.opener');
  if (!players.some((p) => 'narrowed' in p)) k.narrowed = openingNarrowing(k);
  checkConsistent(k, players);
  return k;
}

/**
 * The narrowing a view without history still implies: the opener holds its forced rank.
 * @param {Knowledge} k
 */
function openingNarrowing(k) {
  const narrowed = k.handSizes.map(() => /** @type {number[]} */ ([]));
  const opener = k.current;
  const rank = k.forcedRank;
  if (rank !== null && opener !== null && opener !== k.seat && k.known[opener].every((c) => c >> 2 !== rank)) {
    narrowed[opener] = [1 << rank];
  }
  return narrowed;
}

/**
 * Refuse a view no game in progress fits, as `Knowledge.from_view` does (`check_table_cards`, `_check_hidden`,
 * `check_public`, then the legal actions against the rules'); the knowledge's `legal` becomes the rules' list.
 * @param {Knowledge} k
 * @param {Record<string, any>[]} players
 */
function checkConsistent(k, players) {
  check(players.every((p, s) => p.active === k.active[s]),
    'view.players[*].active must be true exactly for the seats not in finish_order');
  for (let s = 0; s < k.numPlayers; s += 1) {
    check(k.faceUp[s].length <= TABLE_CARDS, `players[${s}].face_up holds ${k.faceUp[s].length} cards; at most ${TABLE_CARDS}`);
    check(k.faceDown[s] <= TABLE_CARDS, `players[${s}].face_down holds ${k.faceDown[s]} cards; at most ${TABLE_CARDS}`);
  }
  checkHidden(k);
  checkPublic(k);
  const rules = legalMoves(k);
  const claimed = [...k.legal].sort((a, b) => a - b);
  const sorted = [...rules].sort((a, b) => a - b);
  check(claimed.length === sorted.length && claimed.every((index, i) => index === sorted[i]),
    `view.legal_actions ${JSON.stringify(k.legal.map(actionAt))} disagree with the rules, which allow `
    + `${JSON.stringify(rules.map(actionAt))} for seat ${k.seat}`);
  k.legal = rules;
}

/**
 * The view's own counts agree, and the cards it hides are exactly the deck's unseen ones.
 * @param {Knowledge} k
 */
function checkHidden(k) {
  const seat = k.seat;
  check(k.handSizes[seat] === k.hand.length,
    `view.players[${seat}].hand_size is ${k.handSizes[seat]} but view.hand holds ${k.hand.length}`);
  for (let s = 0; s < k.numPlayers; s += 1) {
    check(k.known[s].length <= k.handSizes[s], `view.players[${s}].known holds more cards than its hand_size ${k.handSizes[s]}`);
    check(k.known[s].length + k.narrowed[s].length <= k.handSizes[s], `view.players[${s}].narrowed names more cards than its hand hides`);
  }
  const hidden = [...k.hand];
  for (const card of k.known[seat]) {
    const at = hidden.indexOf(card);
    check(at >= 0, `view.players[${seat}].known holds cards that are not in view.hand`);
    hidden.splice(at, 1);
  }
  check(fits(k.narrowed[seat], hidden), `view.players[${seat}].narrowed does not fit the seat's own hidden hand cards`);
  const counts = unseenCodes(k);
  check(counts.every((c) => c >= 0), 'the view shows more copies of a card than the deck holds');
  const unseen = counts.flatMap((copies, card) => new Array(copies).fill(card));
  const others = k.narrowed.flatMap((masks, s) => (s === seat ? [] : masks));
  check(!others.length || fits(others, unseen), "the other seats' players[].narrowed fit no deal of the cards this seat has not seen");
  let concealed = k.drawSize;
  for (let s = 0; s < k.numPlayers; s += 1) concealed += k.faceDown[s] + (s === seat ? 0 : k.handSizes[s] - k.known[s].length);
  check(concealed === unseen.length,
    `the view hides ${concealed} cards (draw pile, face-down cards, unknown hand cards) but ${unseen.length} cards of the deck are unseen`);
}

/**
 * A position play can reach, as far as public facts decide, for a game in progress (`check_public`).
 * @param {Knowledge} k
 */
function checkPublic(k) {
  const { numPlayers: n, phase, finishOrder: finish } = k;
  const current = /** @type {number} */ (k.current);
  check(new Set(finish).size === finish.length, `'finish_order' repeats a seat: ${JSON.stringify(finish)}`);
  check(k.decisions <= k.maxDecisions, `'decisions' ${k.decisions} exceeds 'max_decisions' ${k.maxDecisions}`);
  check(k.decisions !== k.maxDecisions, `'decisions' reached 'max_decisions' (${k.maxDecisions}): the game would be over`);
  for (let s = 0; s < n; s += 1) {
    const holds = k.handSizes[s] + k.faceUp[s].length + k.faceDown[s] > 0;
    check(holds !== finish.includes(s), `seat ${s} ${holds ? "is in 'finish_order' (safe) but still holds cards" : "holds no cards but is not in 'finish_order'"}`);
  }
  check(n - finish.length >= 2, "a game in progress needs at least two seats that are not in 'finish_order'");
  check(!finish.includes(current) || phase === 'nominate', `'current' seat ${current} is safe (in 'finish_order') and cannot act`);
  if (k.forcedRank !== null) {
    check(phase === 'play' && k.rules.rules.opener_plays_lowest,
      "'forced_rank' is only set for the opening play of rules with opener_plays_lowest");
    const rank = k.forcedRank;
    check(k.hand.some((card) => card >> 2 === rank), `'forced_rank' is not in the hand of seat ${current}, which must play it`);
  }
  if (phase === 'swap') checkSwap(k);
  else if (phase === 'nominate') {
    check(k.pile.length > 0 && k.rules.power.nominate[k.pile[k.pile.length - 1] >> 2],
      "phase 'nominate' follows a nominating play: the pile's top card must have the 'nominate' power");
  }
  if (phase === 'interrupt') checkWindow(k);
  else check(k.window === null, `'window' is only used in phase 'interrupt', got it in phase ${JSON.stringify(phase)}`);
}

/**
 * Before the first turn: nothing played, picked up or finished; the chooser and the seats after it still choose.
 * @param {Knowledge} k
 */
function checkSwap(k) {
  check(!k.pile.length && !k.burned.length && !k.finishOrder.length,
    "phase 'swap' comes before any play: 'pile', 'burned' and 'finish_order' must be empty");
  check(k.known.every((cards) => !cards.length) && k.narrowed.every((masks) => !masks.length),
    "phase 'swap' comes before any pickup: no seat has 'known' or 'narrowed' cards yet");
  const n = k.numPlayers;
  const first = (k.dealer + 1) % n;
  for (let offset = (((/** @type {number} */ (k.current) - first) % n) + n) % n; offset < n; offset += 1) {
    const seat = (first + offset) % n;
    const missing = TABLE_CARDS - k.faceUp[seat].length;
    check(missing > 0 && missing <= k.handSizes[seat], `seat ${seat} has still to choose face-up cards but has nothing to choose`);
  }
}

/**
 * An interrupt window the rules allow, its seats consistent.
 * @param {Knowledge} k
 */
function checkWindow(k) {
  const t = k.rules;
  check(t.rules.snatch || t.power.eight_dump.some(Boolean),
    `phase 'interrupt' needs out-of-turn plays, which rules ${JSON.stringify(t.name)} do not have`);
  check(k.window !== null, "phase 'interrupt' needs 'window': {'played_by': seat, 'next': seat, 'queue': [seats]}");
  check(k.pile.length > 0, "phase 'interrupt' needs a non-empty pile");
  const { playedBy, next, queue } = /** @type {{playedBy: number, next: number, queue: number[]}} */ (k.window);
  check(!k.finishOrder.includes(next), `window.next ${next} is safe (in 'finish_order'): the held turn belongs to an active seat`);
  const asked = [/** @type {number} */ (k.current), ...queue];
  check(!asked.includes(playedBy) && new Set(asked).size === asked.length && !asked.some((s) => k.finishOrder.includes(s)),
    `window: the seats asked (${JSON.stringify(asked)}) must be distinct active seats other than played_by ${playedBy}`);
}

/**
 * Copies of each card code the seat has never seen (the deck minus every card it knows).
 * @param {Knowledge} k
 */
function unseenCodes(k) {
  const decks = decksFor(k.rules, k.numPlayers);
  const counts = new Array(NUM_RANKS * 4).fill(0);
  for (let code = 0; code < (NUM_RANKS - 1) * 4; code += 1) counts[code] = decks;
  for (let s = 0; s < k.rules.rules.jokers_per_deck; s += 1) counts[(NUM_RANKS - 1) * 4 + s] = decks;
  const zones = [k.hand, k.pile, k.burned, ...k.faceUp, ...k.known.filter((_, s) => s !== k.seat)];
  for (const zone of zones) for (const card of zone) counts[card] -= 1;
  return counts;
}
