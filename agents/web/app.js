// The browser table: plays one seat of a game session of `shithead serve` (docs/protocol.md "Game sessions").
// Plain JavaScript, no build step, no outside requests: everything comes from this server's /v1 endpoints.
"use strict";

const $ = (id) => document.getElementById(id);
const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_WORDS = { T: "10", X: "Joker" };
// Cards are shown in the order the terminal shows them: by rank as shithead_env.cards.RANKS lists them, then suit
// (tests/agents/test_browser.py keeps these in step with the engine).
const RANK_ORDER = "23456789TJQKAX";
const SUIT_ORDER = "CDHSRB";
let presets = [];
let bots = [];
let state = null;
let shown = -1; // number of the last event in the log

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const reply = await fetch(path, options);
  const data = reply.status === 204 ? null : await reply.json();
  return { ok: reply.ok, status: reply.status, data };
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function rankWord(rank) {
  return RANK_WORDS[rank] || rank;
}

function cardNode(name, tag = "span") {
  const node = el(tag, "card");
  const rank = name[0];
  const suit = name[1];
  node.dataset.card = name;
  if (rank === "X") {
    node.append(el("span", "", "Jkr"), el("span", "", suit === "R" ? "red" : "black"));
    if (suit === "R") node.classList.add("red");
  } else {
    node.append(el("span", "", rankWord(rank)), el("span", "", SUITS[suit]));
    if (suit === "H" || suit === "D") node.classList.add("red");
  }
  return node;
}

function byRank(a, b) {
  return RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]) || SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]);
}

function backs(count) {
  const box = el("span", "cards");
  if (count > 0) box.append(el("span", "card back", String(count)));
  else box.append(el("span", "", "none"));
  return box;
}

function cards(names, tag) {
  const box = el("span", "cards");
  if (!names.length) box.append(el("span", "", "none"));
  for (const name of [...names].sort(byRank)) box.append(cardNode(name, tag));
  return box;
}

function zone(label, content) {
  const row = el("div", "zone");
  row.append(el("span", "", label), content);
  return row;
}

// ------------------------------------------------------------------ setup
function eligibleBots(rules, players) {
  // A model card's `tables` (preset -> player counts) is its exact cover; built-in bots list every preset.
  return bots.filter((b) => (b.tables ? (b.tables[rules] || []).includes(players)
    : b.rules.includes(rules) && (!b.players || b.players.includes(players))));
}

function outOfRange(input, low, high, what) {
  // A number the table cannot take is said so (and Deal waits), never quietly replaced by the nearest one.
  const text = input.value.trim();
  const ok = /^[0-9]+$/.test(text) && Number(text) >= low && Number(text) <= high;
  const why = ok ? "" : `${what} must be ${low} to ${high}, not ${text === "" ? "empty" : text}.`;
  input.setCustomValidity(why);
  return why;
}

function refreshSetup() {
  const preset = presets.find((p) => p.name === $("rules").value);
  const players = $("players");
  players.min = preset.players.min;
  players.max = preset.players.max;
  const playersWrong = outOfRange(players, preset.players.min, preset.players.max, `Players for ${preset.name}`);
  const n = playersWrong ? Math.min(Math.max(Number(players.value) || 0, preset.players.min), preset.players.max)
    : Number(players.value);
  const seat = $("seat");
  seat.max = n - 1;
  const seatWrong = outOfRange(seat, 0, n - 1, `Your seat at ${n} players`);
  $("setup-error").textContent = [playersWrong, seatWrong].filter(Boolean).join(" ");
  $("deal").disabled = Boolean(playersWrong || seatWrong);
  $("setup-legend").textContent = preset.legend;
  const choices = eligibleBots(preset.name, n).map((b) => b.name);
  const box = $("bot-seats");
  const previous = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", "", "Bots"));
  let i = 0;
  for (let s = 0; s < n; s++) {
    if (s === Number(seat.value)) continue;
    const label = el("label", "", `P${s} `);
    const select = el("select");
    select.name = `bot-${s}`;
    select.dataset.seat = s;
    for (const name of choices) select.append(new Option(name, name));
    const keep = previous[i++];
    // default: `auto` (the shipped model made for this table) where a card covers it, else heuristic
    const fallback = ["auto", "heuristic"].find((name) => choices.includes(name)) || choices[0];
    select.value = choices.includes(keep) ? keep : fallback;
    label.append(select);
    box.append(label);
  }
  const hint = $("hint-bot");
  const hintValue = hint.value;
  hint.replaceChildren(new Option("none", ""));
  for (const name of choices) hint.append(new Option(name, name));
  hint.value = choices.includes(hintValue) ? hintValue : "";
}

async function loadSetup() {
  const [p, b] = await Promise.all([api("GET", "/v1/presets"), api("GET", "/v1/bots")]);
  presets = p.data.presets;
  bots = b.data.bots;
  for (const preset of presets) $("rules").append(new Option(preset.name, preset.name));
  for (const id of ["rules", "players", "seat"]) {
    $(id).addEventListener("change", refreshSetup);
    $(id).addEventListener("input", refreshSetup);
  }
  refreshSetup();
}

async function deal(event) {
  event.preventDefault();
  const body = {
    rules: $("rules").value,
    players: Number($("players").value),
    seat: Number($("seat").value),
    bots: [...$("bot-seats").querySelectorAll("select")].map((s) => s.value),
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  if ($("hint-bot").value) body.hint = $("hint-bot").value;
  $("deal").disabled = true;
  const reply = await api("POST", "/v1/games", body);
  $("deal").disabled = false;
  if (!reply.ok) {
    alert(reply.data.error.message);
    return;
  }
  sessionStorage.setItem("game", reply.data.game);
  $("log").replaceChildren();
  shown = -1;
  render(reply.data);
}

// ------------------------------------------------------------------ the table
function seatName(s) {
  return s === state.seat ? "you" : `P${s} ${state.names[s]}`;
}

function status(s) {
  const view = state.view;
  const place = view.finish_order.indexOf(s);
  if (place >= 0) {
    const loser = state.result && !state.result.truncated && place === view.num_players - 1;
    return loser ? "shithead" : `safe #${place + 1}`;
  }
  return view.current === s ? "to act" : "";
}

function seatBox(s) {
  const view = state.view;
  const p = view.players[s];
  const box = el("div", "seat");
  box.dataset.seat = s;
  if (view.current === s) box.classList.add("to-act");
  const title = el("div", "name", seatName(s));
  const st = status(s);
  if (st) title.append(el("span", "", ` \u2014 ${st}`));
  box.append(title);
  if (s !== state.seat) {
    const hand = el("span", "cards");
    const seen = p.known.length ? ", seen:" : "";
    hand.append(el("span", "", `${p.hand_size} card${p.hand_size === 1 ? "" : "s"}${seen}`));
    for (const name of p.known) {
      const node = cardNode(name);
      node.classList.add("known");
      node.title = "seen by everyone";
      hand.append(node);
    }
    box.append(zone("hand", hand));
  }
  box.append(zone("face-up", cards(p.face_up)), zone("face-down", backs(p.face_down)));
  return box;
}

function renderPile() {
  const pile = state.view.pile;
  const box = $("pile");
  box.replaceChildren();
  const invisible = new Set(state.table.invisible);
  const shownCards = pile.slice(-8);
  if (pile.length > shownCards.length) box.append(el("span", "", `${pile.length - shownCards.length} more \u2026`));
  let topMarked = false;
  const nodes = shownCards.map((name) => cardNode(name));
  for (let i = nodes.length - 1; i >= 0; i--) {
    const rank = shownCards[i][0];
    if (invisible.has(rank)) nodes[i].classList.add("invisible");
    else if (!topMarked) {
      nodes[i].classList.add("top");
      nodes[i].title = "effective top";
      topMarked = true;
    }
  }
  if (!pile.length) box.append(el("span", "", "empty"));
  box.append(...nodes);
  $("pile-count").textContent = `(${pile.length})`;
  $("needs").textContent = `Next play: ${state.table.needs}` + (state.table.run > 1 ? ` \u2014 ${state.table.run} in a row` : "");
}

function actionLabel(a) {
  if (a.kind === "play") return a.count > 1 ? `Play ${a.count} \u00d7 ${rankWord(a.rank)}` : `Play ${rankWord(a.rank)}`;
  if (a.kind === "face_up") return `Face up: ${rankWord(a.rank)}`;
  if (a.kind === "nominate") return a.seat === state.seat ? "Name yourself" : `Name ${seatName(a.seat)}`;
  return { pickup: "Pick up the pile", flip: "Flip a face-down card", pass: "Pass" }[a.kind];
}

function prompt() {
  const view = state.view;
  if (state.result) return "Game over.";
  if (view.current !== state.seat) return `${seatName(view.current)} is to act.`;
  return {
    swap: "Choose a card to lie face up (three in all).",
    play: view.forced_rank ? `You open: play your ${rankWord(view.forced_rank)}s.` : "Your turn.",
    nominate: "Name who plays next.",
    interrupt: "You may play out of turn, or pass.",
  }[view.phase];
}

function renderMe() {
  const view = state.view;
  const me = view.players[state.seat];
  const box = seatBox(state.seat);
  box.id = "me";
  const hand = el("span", "cards");
  hand.id = "my-hand";
  if (!view.hand.length) hand.append(el("span", "", "none"));
  for (const name of [...view.hand].sort(byRank)) {
    const node = cardNode(name, "button");
    node.type = "button";
    node.addEventListener("click", () => pickRank(name[0], "hand"));
    if (me.known.includes(name)) node.classList.add("known");
    hand.append(node);
  }
  const handZone = zone("your hand", hand);
  handZone.classList.add("wide");
  box.insertBefore(handZone, box.children[1]);
  $("me").replaceWith(box);
}

function renderActions() {
  const box = $("actions");
  box.replaceChildren();
  for (const action of state.view.legal_actions) {
    const button = el("button", "", actionLabel(action));
    button.type = "button";
    button.dataset.action = JSON.stringify(action);
    button.addEventListener("click", () => act(action));
    box.append(button);
  }
  $("hint").hidden = !state.hint || !state.view.legal_actions.length;
  $("hint-text").textContent = "";
}

function pickRank(rank, where) {
  // A click on a card of the hand: do the one legal move with that rank, else point at the choices.
  const buttons = [...$("actions").querySelectorAll("button")];
  const matching = buttons.filter((b) => JSON.parse(b.dataset.action).rank === rank);
  for (const b of buttons) b.classList.toggle("pick", matching.includes(b));
  if (matching.length === 1) matching[0].click();
  else if (!matching.length) $("error").textContent = `No move with that ${where} card now.`;
}

function renderLog() {
  const log = $("log");
  for (const event of state.events) {
    if (event.n <= shown) continue;
    const item = el("li", event.seat === state.seat ? "mine" : "", event.text);
    item.value = event.n + 1;
    log.append(item);
    shown = event.n;
  }
  log.scrollTop = log.scrollHeight;
}

function renderResult() {
  const box = $("result");
  box.hidden = !state.result;
  if (!state.result) return;
  const r = state.result;
  box.replaceChildren(el("h3", "", r.truncated ? "Stopped at the decision cap" : "Finish order"));
  const list = el("ol");
  for (const s of r.finish_order) list.append(el("li", "", `${seatName(s)} (score ${r.scores[s] >= 0 ? "+" : ""}${r.scores[s].toFixed(2)})`));
  box.append(list);
  const again = el("button", "", "Play again");
  again.type = "button";
  again.addEventListener("click", newGame);
  box.append(again);
}

function render(next) {
  state = next;
  document.body.dataset.decisions = state.view.decisions; // lets a test wait for the next position
  $("setup").hidden = true;
  $("table").hidden = false;
  $("new-game").hidden = false;
  $("legend").textContent = state.table.legend;
  $("opponents").replaceChildren(
    ...state.view.players.map((_, s) => s).filter((s) => s !== state.seat).map(seatBox),
  );
  renderPile();
  $("draw-count").textContent = state.view.draw_pile;
  $("burned-count").textContent = state.view.burned.length;
  $("direction").textContent = state.view.direction === 1 ? "clockwise \u21bb" : "anticlockwise \u21ba";
  $("prompt").textContent = prompt();
  renderMe();
  renderActions();
  renderLog();
  renderResult();
}

async function act(action) {
  for (const b of $("actions").querySelectorAll("button")) b.disabled = true;
  $("error").textContent = "";
  const reply = await api("POST", `/v1/games/${state.game}/actions`, { action, decisions: state.view.decisions });
  if (reply.ok) render(reply.data);
  else {
    $("error").textContent = reply.data.error.message;
    for (const b of $("actions").querySelectorAll("button")) b.disabled = false;
  }
}

async function showHint() {
  const reply = await api("GET", `/v1/games/${state.game}/hint`);
  if (!reply.ok) {
    $("error").textContent = reply.data.error.message;
    return;
  }
  const byAction = new Map(reply.data.probabilities.map((p) => [JSON.stringify(p.action), p.probability]));
  for (const button of $("actions").querySelectorAll("button")) {
    const p = byAction.get(button.dataset.action) ?? 0;
    button.querySelector(".prob")?.remove();
    button.append(el("span", "prob", `${Math.round(100 * p)}%`));
  }
  const label = actionLabel(reply.data.action);
  $("hint-text").textContent = `${reply.data.bot} would ${label[0].toLowerCase()}${label.slice(1)}.`;
}

function newGame() {
  sessionStorage.removeItem("game");
  if (state) api("DELETE", `/v1/games/${state.game}`);
  state = null;
  $("table").hidden = true;
  $("setup").hidden = false;
  $("new-game").hidden = true;
}

async function resume() {
  const id = sessionStorage.getItem("game");
  if (!id) return;
  const reply = await api("GET", `/v1/games/${id}?since=0`);
  if (reply.ok) render(reply.data);
  else sessionStorage.removeItem("game");
}

document.addEventListener("DOMContentLoaded", async () => {
  $("setup").addEventListener("submit", deal);
  $("new-game").addEventListener("click", newGame);
  $("hint").addEventListener("click", showHint);
  await loadSetup();
  await resume();
});
