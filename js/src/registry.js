/**
 * Which shipped model plays a table under `model:auto`, decided as the Python side decides it
 * (`agents/onnx_bot.py`, `ShippedBot.model_for`) from the models' cards (`bot.json`).
 * @module
 */

/**
 * A model's card (`bot.json`), the fields read here.
 * @typedef {object} Card
 * @property {string} name
 * @property {string[]} rules
 * @property {number[]} players
 * @property {Record<string, number[]>} [tables] preset -> player counts (format 2)
 * @property {number} encoding_version
 * @property {number} observation_size
 * @property {number} action_layout_version
 * @property {number} num_actions
 * @property {{sha256?: string}} [model]
 * @property {{results?: {rules?: string, players?: number, opponent?: string, score: number}[]}} [evaluation]
 */

/**
 * The model registry's policy networks `model:auto` chooses from (`auto: true`), as directories under the
 * registry's folder, sorted (`agents.registry.network_dirs("policy")`).
 * @param {{networks: {kind: string, auto: boolean, directory: string}[]}} registry the parsed `registry.json`
 * @returns {string[]}
 */
export function registryPolicies(registry) {
  return registry.networks.filter((net) => net.kind === 'policy' && net.auto).map((net) => net.directory).sort();
}

/**
 * The tables a card covers, preset -> player counts (a card without `tables`: every listed preset with every count).
 * @param {Card} card
 * @returns {Record<string, number[]>}
 */
export function cardTables(card) {
  if (card.tables) return card.tables;
  return Object.fromEntries(card.rules.map((rules) => [rules, card.players]));
}

/**
 * Whether a card covers a table.
 * @param {Card} card
 * @param {string} rules
 * @param {number} players
 */
export function covers(card, rules, players) {
  return (cardTables(card)[rules] ?? []).includes(players);
}

/**
 * The card's measured mean score against `heuristic` at this table, or null (a result without a table,
 * from a card of one table, is that table's).
 * @param {Card} card
 * @param {string} rules
 * @param {number} players
 */
export function measuredScore(card, rules, players) {
  const tables = Object.entries(cardTables(card));
  const single = tables.length === 1 && tables[0][0] === rules && tables[0][1].length === 1 && tables[0][1][0] === players;
  for (const result of card.evaluation?.results ?? []) {
    const here = result.rules === rules && result.players === players;
    const unplaced = result.rules == null && result.players == null;
    if (result.opponent === 'heuristic' && (here || (unplaced && single))) return Number(result.score);
  }
  return null;
}

/**
 * The card `model:auto` seats at a table: among the cards that cover it, the best measured score there,
 * then the narrowest card, then the name. Throws when none covers it.
 * @template {Card} C
 * @param {readonly C[]} cards every shipped model's card
 * @param {string} rules
 * @param {number} players
 * @returns {C}
 */
export function chooseCard(cards, rules, players) {
  const width = (/** @type {Card} */ card) => Object.values(cardTables(card)).reduce((sum, counts) => sum + counts.length, 0);
  const ordered = [...cards].sort((a, b) => width(a) - width(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const covering = ordered.filter((card) => covers(card, rules, players));
  if (!covering.length) throw new Error(`model:auto: no shipped model covers ${rules} with ${players} players`);
  let best = 0;
  let bestKey = [-1, 0];
  covering.forEach((card, i) => {
    const score = measuredScore(card, rules, players);
    const key = [score === null ? 0 : 1, score ?? 0];
    if (key[0] > bestKey[0] || (key[0] === bestKey[0] && key[1] > bestKey[1])) {
      best = i;
      bestKey = key;
    }
  });
  return covering[best];
}
