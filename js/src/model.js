/**
 * Bots that play the shipped networks: `ModelBot` (one exported model: `bot.json` + `model.onnx`) and
 * `AutoBot` (`model:auto`: at each table, the shipped model `chooseCard` picks). Both answer a view with
 * the JSON bot protocol's response, as `agents.protocol.handle_request` does for `make_bot("model:...")`.
 * @module
 */
import { ACTION_LAYOUT_VERSION, NUM_ACTIONS, actionAt } from './actions.js';
import { ENCODING_VERSIONS, encode, layout, legalMask } from './encoding.js';
import { loadOrt } from './ort.js';
import { cardTables, chooseCard, covers } from './registry.js';
import { PROTOCOL_VERSION, ProtocolError, readView } from './view.js';

/** @typedef {import('./registry.js').Card} Card */
/** @typedef {import('./view.js').Knowledge} Knowledge */
/** @typedef {import('./actions.js').Action} Action */
/** @typedef {string | URL | ArrayBuffer | Uint8Array} ModelSource a URL or (Node.js) file path, or the file's bytes */
/**
 * The protocol's response to a view.
 * @typedef {object} Response
 * @property {number} protocol
 * @property {string} bot
 * @property {Action} action
 * @property {number} index
 * @property {{index: number, action: Action, probability: number}[]} probabilities one per legal action, in the view's order
 */
/** @typedef {{index: number, probabilities: Float64Array}} Policy the chosen action index and the probabilities over all actions */

/** The model was exported for an encoding or action layout this package does not read. */
export class ModelVersionError extends Error {}

/**
 * The bytes of a model file: fetched from a URL, read from a path (Node.js), or as given.
 * @param {ModelSource} source
 * @returns {Promise<Uint8Array>}
 */
export async function loadBytes(source) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  const text = String(source);
  const inNode = typeof process !== 'undefined' && Boolean(process.versions?.node);
  if (inNode && !/^(https?|data|blob):/.test(text)) {
    const { readFile } = await import('node:fs/promises');
    return new Uint8Array(await readFile(text.startsWith('file:') ? new URL(text) : text));
  }
  const response = await fetch(text);
  if (!response.ok) throw new Error(`${text}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The encoding version a card's model reads, checked against this package's versions.
 * @param {Card} card
 */
export function checkCard(card) {
  const version = card.encoding_version;
  if (!ENCODING_VERSIONS.includes(version)) {
    throw new ModelVersionError(`${card.name}: the model reads encoding_version ${version}; this package reads ${ENCODING_VERSIONS.join(', ')}`);
  }
  if (card.observation_size !== layout(version).size) {
    throw new ModelVersionError(`${card.name}: observation_size ${card.observation_size} does not match encoding_version ${version} (${layout(version).size} values)`);
  }
  if (card.action_layout_version !== ACTION_LAYOUT_VERSION || card.num_actions !== NUM_ACTIONS) {
    throw new ModelVersionError(`${card.name}: the model was exported for action layout ${card.action_layout_version} `
      + `(${card.num_actions} actions); this package uses ${ACTION_LAYOUT_VERSION} (${NUM_ACTIONS})`);
  }
  return version;
}

/**
 * @param {Uint8Array} bytes
 * @param {string} name the model, for the error
 */
async function sha256(bytes, name) {
  if (!globalThis.crypto?.subtle) {
    throw new Error(`${name}: cannot check the model file's sha256: this page is not a secure context (serve it over `
      + 'https or from localhost), or pass {verify: false} to load the file unchecked');
  }
  const digest = await globalThis.crypto.subtle.digest('SHA-256', /** @type {Uint8Array<ArrayBuffer>} */ (bytes));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The protocol's response for a knowledge and a policy over it.
 * @param {string} name
 * @param {Knowledge} knowledge
 * @param {Policy} policy
 * @returns {Response}
 */
function response(name, knowledge, policy) {
  if (!knowledge.legal.includes(policy.index)) {
    throw new ProtocolError('bot_failure', `bot ${JSON.stringify(name)} chose action ${policy.index}, which is not a legal action`);
  }
  return {
    protocol: PROTOCOL_VERSION,
    bot: name,
    action: actionAt(policy.index),
    index: policy.index,
    probabilities: knowledge.legal.map((index) => ({ index, action: actionAt(index), probability: policy.probabilities[index] })),
  };
}

/** One exported model: encodes the seat's knowledge in its card's encoding, runs the network, takes its argmax. */
export class ModelBot {
  /**
   * Load a model. `ort`: an ONNX Runtime module (default: `loadOrt()`); `card`: its `bot.json` object;
   * `model`: its `model.onnx` (URL, path or bytes; checked against the card's sha256 unless `verify` is false).
   * @param {{card: Card, model: ModelSource, ort?: any, name?: string, sessionOptions?: object, verify?: boolean}} options
   */
  static async create({ card, model, ort, name, sessionOptions, verify = true }) {
    const runtime = ort ?? (await loadOrt());
    checkCard(card);
    const bytes = await loadBytes(model);
    const expected = card.model?.sha256;
    if (verify && expected && (await sha256(bytes, card.name)) !== expected) {
      throw new Error(`${card.name}: the model file's sha256 is not the one its card names (${expected}); pass the file the card was written for`);
    }
    const session = await runtime.InferenceSession.create(bytes, sessionOptions ?? {});
    return new ModelBot(runtime, session, card, name ?? `model:${card.name}`);
  }

  /**
   * @param {any} ort the ONNX Runtime module
   * @param {any} session an `InferenceSession` of the card's model
   * @param {Card} card
   * @param {string} name the `bot` the responses name
   */
  constructor(ort, session, card, name) {
    this.ort = ort;
    this.session = session;
    this.card = card;
    this.name = name;
    this.encodingVersion = checkCard(card);
    this.tables = cardTables(card);
    /** The presets the model plays. */
    this.rules = Object.keys(this.tables);
  }

  /**
   * Whether the model's card covers this table.
   * @param {string} rules
   * @param {number} players
   */
  covers(rules, players) {
    return covers(this.card, rules, players);
  }

  /**
   * The model's choice and its probabilities over every action (zero on illegal ones) for a seat to act.
   * @param {Knowledge} knowledge
   * @returns {Promise<Policy>}
   */
  async policy(knowledge) {
    const size = layout(this.encodingVersion).size;
    const feeds = {
      observation: new this.ort.Tensor('float32', encode(knowledge, this.encodingVersion), [1, size]),
      action_mask: new this.ort.Tensor('bool', legalMask(knowledge), [1, NUM_ACTIONS]),
    };
    const outputs = await this.session.run(feeds);
    const logits = /** @type {Float32Array} */ (outputs.masked_logits.data);
    const probabilities = new Float64Array(NUM_ACTIONS);
    let total = 0;
    for (let i = 0; i < NUM_ACTIONS; i += 1) {
      probabilities[i] = Math.exp(logits[i]);
      total += probabilities[i];
    }
    for (let i = 0; i < NUM_ACTIONS; i += 1) probabilities[i] /= total;
    return { index: Number(outputs.action.data[0]), probabilities };
  }

  /**
   * Answer a view (JSON text, bytes or object) with the protocol's response; `ProtocolError` for a view the
   * protocol refuses, with its code.
   * @param {string | Uint8Array | object} view
   * @returns {Promise<Response>}
   */
  async act(view) {
    const knowledge = readView(view, this.rules);
    if (!this.covers(knowledge.rules.name, knowledge.numPlayers)) {
      throw new ProtocolError('unsupported_rules', `${this.name} is not made for ${knowledge.rules.name} with ${knowledge.numPlayers} players`);
    }
    return response(this.name, knowledge, await this.policy(knowledge));
  }
}

/** `model:auto`: at each table, the shipped model whose card `chooseCard` picks (loaded on first use). */
export class AutoBot {
  /**
   * `cards`: every shipped model's card; `model(card)`: where that model's `model.onnx` is (URL, path or bytes).
   * @param {{cards: Card[], model: (card: Card) => ModelSource | Promise<ModelSource>, ort?: any, sessionOptions?: object}} options
   */
  constructor({ cards, model, ort, sessionOptions }) {
    if (!cards.length) throw new Error('model:auto: no model cards given');
    this.cards = cards;
    this.source = model;
    this.ort = ort;
    this.sessionOptions = sessionOptions;
    this.name = 'model:auto';
    /** @type {Map<string, Promise<ModelBot>>} */
    this.loaded = new Map();
    this.rules = [...new Set(cards.flatMap((card) => Object.keys(cardTables(card))))];
  }

  /**
   * @param {string} rules
   * @param {number} players
   */
  covers(rules, players) {
    return this.cards.some((card) => covers(card, rules, players));
  }

  /**
   * The model that plays this table (loaded once per model).
   * @param {string} rules
   * @param {number} players
   * @returns {Promise<ModelBot>}
   */
  modelFor(rules, players) {
    const card = chooseCard(this.cards, rules, players);
    let bot = this.loaded.get(card.name);
    if (!bot) {
      bot = (async () => ModelBot.create({
        card, model: await this.source(card), ort: this.ort ?? (await loadOrt()), name: this.name, sessionOptions: this.sessionOptions,
      }))();
      this.loaded.set(card.name, bot);
    }
    return bot;
  }

  /**
   * @param {Knowledge} knowledge
   * @returns {Promise<Policy>}
   */
  async policy(knowledge) {
    return (await this.modelFor(knowledge.rules.name, knowledge.numPlayers)).policy(knowledge);
  }

  /**
   * Answer a view with the protocol's response, as `make_bot("model:auto")` does.
   * @param {string | Uint8Array | object} view
   * @returns {Promise<Response>}
   */
  async act(view) {
    const knowledge = readView(view, this.rules);
    if (!this.covers(knowledge.rules.name, knowledge.numPlayers)) {
      throw new ProtocolError('unsupported_rules', `model:auto: no shipped model covers ${knowledge.rules.name} with ${knowledge.numPlayers} players`);
    }
    return response(this.name, knowledge, await this.policy(knowledge));
  }
}
