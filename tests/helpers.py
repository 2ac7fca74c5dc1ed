"""Shared helpers for the test-suite: hand-written positions, inspection, seeded random play.

Positions are written with rank tokens ("K", "3", "X" for a Joker) or full
cards ("KS", "XR"); `make_state` gives every rank token a suit that is not yet
used in the position, so a hand-built position never holds more copies of a
card than the deck. Card conservation is NOT required for hand-built positions.

Random positions come from one generator, `random_positions`: seeded random
play (uniform over the legal actions) from a preset's deal or a given game.
`played_games` pins a bot's play: its moves in seeded games, as a short digest.
Fixtures live in conftest.py; this module is imported as ``tests.helpers``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Iterator

import numpy as np

from shithead_env import Action, Game, Rules, load_rules

PRESETS = ["dead_last", "online_classic", "pub", "harrogate", "power_deck"]
PLAYER_RANGE = {
    "dead_last": (2, 5),
    "online_classic": (2, 10),
    "pub": (2, 4),
    "harrogate": (2, 10),
    "power_deck": (2, 5),
}
RANKS = "23456789TJQKA"
SUITS = "CDHS"


def num_decks(preset: str, n: int) -> int:
    if preset == "online_classic" and n > 5:
        return 2
    if preset == "harrogate" and n >= 6:
        return 2
    return 1


def full_deck(preset: str, n: int) -> Counter:
    """The full card multiset for a preset and player count (from RULES.md 4)."""
    decks = num_decks(preset, n)
    deck = Counter()
    for r in RANKS:
        for s in SUITS:
            deck[r + s] += decks
    if preset == "power_deck":
        deck["XR"] += decks
        deck["XB"] += decks
    return deck


def _tokens(spec) -> list[str]:
    if spec is None:
        return []
    if isinstance(spec, str):
        return spec.split()
    return list(spec)


class _Allocator:
    def __init__(self, decks: int):
        self.decks = decks
        self.used: Counter = Counter()

    def reserve(self, tokens):
        for t in tokens:
            if len(t) == 2:
                self.used[t] += 1

    def card(self, tok: str) -> str:
        if len(tok) == 2:
            return tok
        suits = "RB" if tok == "X" else SUITS
        if all(self.used[tok + s] >= self.decks for s in suits):
            raise AssertionError(f"test position uses too many {tok!r} cards")
        # pick the least-used suit for this rank, in a fixed order
        best = min(suits, key=lambda s: (self.used[tok + s], suits.index(s)))
        self.used[tok + best] += 1
        return tok + best


def make_state(rules, players, pile="", current=0, *, decks=1, **fields) -> dict:
    """Build a state dict for Game.from_dict.

    players: list of dicts with keys hand / face_up / face_down / known; each
    value a space separated string of rank tokens or cards (or a list).
    `known` rank tokens name cards of the same seat's hand.
    Other keyword fields (draw_pile, burned, direction, finish_order, ...)
    are copied into the dict; card-valued ones may use rank tokens.
    """
    alloc = _Allocator(decks)
    # reserve explicit cards first so rank tokens never collide with them
    for p in players:
        for z in ("hand", "face_up", "face_down"):
            alloc.reserve(_tokens(p.get(z)))
    alloc.reserve(_tokens(pile))
    for z in ("draw_pile", "burned"):
        if z in fields:
            alloc.reserve(_tokens(fields[z]))

    d: dict = {"rules": rules}
    d["pile"] = [alloc.card(t) for t in _tokens(pile)]
    out_players = []
    for p in players:
        q = {}
        for z in ("hand", "face_up", "face_down"):
            q[z] = [alloc.card(t) for t in _tokens(p.get(z))]
        if "known" in p:
            pool = list(q["hand"])
            known = []
            for t in _tokens(p["known"]):
                match = next(c for c in pool if c == t or c[0] == t)
                pool.remove(match)
                known.append(match)
            q["known"] = known
        out_players.append(q)
    d["players"] = out_players
    d["current"] = current
    for k, v in fields.items():
        if k in ("draw_pile", "burned"):
            d[k] = [alloc.card(t) for t in _tokens(v)]
        else:
            d[k] = v
    return d


def position(rules, players, pile="", current=0, **fields) -> Game:
    """Build a Game from a hand-written position (see make_state)."""
    return Game.from_dict(make_state(rules, players, pile, current, **fields))


def bystander(hand="4 6", face_down="J", face_up="") -> dict:
    """A seat of a hand-written position that keeps holding cards."""
    return {"hand": hand, "face_up": face_up, "face_down": face_down}


def new_game(preset: str, n: int, seed: int) -> Game:
    return Game.new(load_rules(preset), num_players=n, seed=seed)


PICKUP = Action.pickup()
FLIP = Action.flip()
PASS = Action.pass_()
P = Action.play


# ---------------------------------------------------------------- inspection


def forced_pickup_game() -> Game:
    """dead_last: seat 0 holds 4 5 9 (all hidden) on a K, so it must pick up (narrowing its hidden hand)."""
    game = position(
        "dead_last",
        [{"hand": "4 5 9", "face_up": "A A A", "face_down": "6 6 6"}, {"hand": "8 8 J", "face_up": "Q Q Q"}],
        pile="K",
    )
    assert game.legal_actions() == [Action.pickup()]
    return game


def ranks(cards) -> list[str]:
    """Sorted ranks of a list of cards (or of a rank/card token string)."""
    return sorted(c[0] for c in _tokens(cards))


def legal(game: Game) -> set:
    return set(game.legal_actions())


def play_ranks(game: Game) -> set[str]:
    """Ranks with at least one legal play."""
    return {a.rank for a in game.legal_actions() if a.kind == "play"}


def play(game: Game, rank: str, count: int = 1) -> None:
    game.step(Action.play(rank, count))


def pass_windows(game: Game) -> None:
    """Answer every interrupt window whose asked seat can only pass (RULES.md 4: seats are asked from
    public information, so a seat may be asked without holding the play)."""
    while game.phase == "interrupt" and game.legal_actions() == [Action.pass_()]:
        game.step(Action.pass_())


def all_cards(d: dict) -> Counter:
    c: Counter = Counter()
    for p in d["players"]:
        for z in ("hand", "face_up", "face_down"):
            c.update(p[z])
    for z in ("draw_pile", "pile", "burned"):
        c.update(d[z])
    return c


def game_cards(game: Game) -> list[int]:
    """Every card code of a game, sorted: each seat's hand, face-up and face-down cards, the draw pile, the
    discard pile and the burned cards (what ``all_cards`` counts from a state's dict, without building it)."""
    zones = [*game.hands, *game.face_up, *game.face_down, game._draw, game.pile, game.burned]
    return sorted(card for zone in zones for card in zone)


# The engine's state: every slot but the rules (shared), their tables, the legal-action cache, the event log and
# the watchers.
_NOT_STATE = {"rules", "_t", "_legal", "events", "watchers"}


def engine_state(game: Game) -> tuple:
    """The game's own fields as one comparable value (read off ``Game.__slots__``, so a new field is in it)."""
    return tuple(getattr(game, name) for name in Game.__slots__ if name not in _NOT_STATE)


def typed(value: object) -> object:
    """``value`` with every leaf and container tagged by its type, so that comparing two of them fails where a field
    changed type (``1`` and ``True``, ``1`` and ``1.0``, a tuple and a list, an int and a numpy int are equal as
    plain values). Mappings keep their keys' types too."""
    if isinstance(value, dict):
        return ("dict", sorted((typed(k), typed(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [typed(v) for v in value])
    return (type(value).__name__, repr(value))


def typed_state(game: Game) -> object:
    """``engine_state`` with its types (``typed``)."""
    return typed(engine_state(game))


def expected_lowest_opener(d: dict, order: str) -> tuple[int, str | None]:
    """(seat, rank) RULES.md names as opener: lowest card of ``order`` in hand, ties to the dealer's left."""
    n = len(d["players"])
    dealer = d["dealer"]
    best = None
    for i in range(n):
        seat = (dealer + 1 + i) % n
        for c in d["players"][seat]["hand"]:
            if c[0] in order:
                key = order.index(c[0])
                if best is None or key < best[0]:
                    best = (key, seat)
    if best is None:
        return (dealer + 1) % n, None
    return best[1], order[best[0]]


# ---------------------------------------------------------------- random play


def random_action(game: Game, rng: np.random.Generator) -> Action:
    """A legal action of the seat to move, drawn uniformly."""
    acts = game.legal_actions()
    return acts[int(rng.integers(len(acts)))]


def random_positions(
    table: str | Rules | Game,
    n: int | None = None,
    seed: int = 0,
    *,
    games: int | None = 1,
    every: int = 1,
    depth: int | None = None,
    rng: np.random.Generator | None = None,
) -> Iterator[Game]:
    """The positions of seeded random play: every decision point of each game, then its end.

    table: a preset name or Rules, to deal ``games`` games (None: without end), the i-th with
        seed ``seed + i``, of ``n`` seats (None: each game draws its size from the preset's
        range); or a Game, played on once from where it stands.
    rng: draws every random choice (default ``default_rng(seed)``); pass your own to keep
        drawing from it between positions.
    every: yield only positions whose ``decisions`` is a multiple of it (the end always).
    depth: yield one position per game instead (``every`` does not apply): after a random
        number of steps below ``depth``, or the end if the game ends first.

    Each yield is the live game (copy it to keep it). The caller may step it itself, to
    record events or to try the action on a twin first; play then goes on from there.
    A game that neither ends nor truncates within its max_decisions steps fails.
    """
    rng = np.random.default_rng(seed) if rng is None else rng
    for game in _deals(table, n, seed, games, rng):
        stop = None if depth is None else int(rng.integers(depth))
        steps = 0
        while not game.is_over and steps != stop:
            assert steps <= game.max_decisions, f"random play neither ended nor truncated in {steps} steps"
            steps += 1
            if stop is None and game.decisions % every == 0:
                decisions = game.decisions
                yield game
                if game.decisions != decisions:  # the caller stepped
                    continue
            game.step(random_action(game, rng))
        yield game


def _deals(
    table: str | Rules | Game, n: int | None, seed: int, games: int | None, rng: np.random.Generator
) -> Iterator[Game]:
    if isinstance(table, Game):
        yield table
        return
    rules = load_rules(table)
    for i in itertools.count() if games is None else range(games):
        size = n if n is not None else int(rng.integers(rules.min_players, rules.max_players + 1))
        yield Game.new(rules, size, seed=seed + i)


def finish_swap(game: Game, rng: np.random.Generator) -> None:
    """Answer the swap phase with random face_up picks."""
    start = game.decisions
    for now in random_positions(game, rng=rng):
        if now.phase != "swap":
            return
        assert now.decisions - start < 30, "swap phase did not end after 3 picks per seat"


def played_games(bot, rules: str, players: int, seeds) -> tuple[int, str]:
    """(decisions, sha256 prefix of the action indices) of the seeded games ``seeds`` with ``bot`` in every seat:
    the even seats through the game fast path (``act_game``), the odd ones through the JSON view (``act``)."""
    played = []
    for seed in seeds:
        game = Game.new(rules, players, seed=seed)
        rng = np.random.default_rng(seed)
        while not game.is_over:
            seat = game.current
            action = bot.act_game(game, seat, rng) if seat % 2 == 0 else bot.act(game.view(seat), rng)
            played.append(action.index)
            game.step(action)
    return len(played), hashlib.sha256(json.dumps(played).encode()).hexdigest()[:16]
