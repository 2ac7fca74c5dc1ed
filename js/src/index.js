/**
 * shithead-bots: the shipped Shithead networks of shithead-env, played from a seat's JSON view in the
 * browser (onnxruntime-web) or Node.js (onnxruntime-node), with the same answers as the Python bots.
 * @module
 */
import { ACTION_LAYOUT_VERSION } from './actions.js';
import { ENCODING_VERSIONS } from './encoding.js';
import { PROTOCOL_VERSION, VIEW_VERSION } from './view.js';

export { ACTION_LAYOUT_VERSION, NUM_ACTIONS, actionAt, actionIndex } from './actions.js';
export { RANKS, cardCode } from './cards.js';
export { ENCODING_VERSIONS, encode, layout, legalMask } from './encoding.js';
export { AutoBot, ModelBot, ModelVersionError, checkCard, loadBytes } from './model.js';
export { loadOrt } from './ort.js';
export { cardTables, chooseCard, covers, measuredScore, registryPolicies } from './registry.js';
export { PRESETS } from './rules.js';
export { ERRORS, PROTOCOL_VERSION, ProtocolError, VIEW_VERSION, parseBody, readView } from './view.js';

/** What this package reads: the protocol, view, encoding and action-layout versions. */
export const READS = Object.freeze({
  protocol: PROTOCOL_VERSION,
  view: VIEW_VERSION,
  encodings: ENCODING_VERSIONS,
  actionLayout: ACTION_LAYOUT_VERSION,
});
