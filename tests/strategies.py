"""Hypothesis strategies shared by the round-trip tests: rule files over every key the validator reads, and tables.

``rule_files()`` draws a mapping ``Rules.from_dict`` accepts: any player range the action layout holds, one or two
decks (``decks_from_players`` keyed as YAML writes it, by ints, or as JSON does, by strings), Jokers, any rank
order with the ranks outside it made power cards, any powers the validator allows, every switch and choice, keys
left out where their default keeps the file valid, blank (null) keys, and ``extends`` of a preset. It is built valid
rather than filtered, so hypothesis rarely throws an example away.

Example counts come from a settings profile: ``ROUND_TRIP`` (modest, the suite's) unless the environment variable
``SHITHEAD_ROUND_TRIP_PROFILE`` names another (``round_trip_long`` draws fifty times as many).
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from shithead_env import Game, Rules, RulesError, load_rules
from shithead_env.actions import MAX_SEATS
from shithead_env.cards import JOKERS_PER_DECK_MAX, RANKS
from shithead_env.rules import (
    CARDS_PER_PLAYER,
    FACE_UP_MODES,
    FIRST_PLAYER_RULES,
    NEXT_GAME_RULES,
    POWERS,
    PRESETS,
)

settings.register_profile(
    "round_trip",
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("round_trip_long", settings.get_profile("round_trip"), max_examples=750)
ROUND_TRIP = settings.get_profile(os.environ.get("SHITHEAD_ROUND_TRIP_PROFILE", "round_trip"))

NORMAL_RANKS = RANKS[:-1]
_OPTIONAL_KEYS = (
    "description", "players", "decks", "decks_from_players", "jokers_per_deck", "rank_order", "powers", "run_burn",
    "snatch", "face_up", "voluntary_pickup", "first_player", "first_player_ignores", "opener_plays_lowest",
    "next_game", "max_decisions",
)  # fmt: skip
_NO_JOKER = tuple(p for p in POWERS if p != "joker")


def _valid(data: dict[str, Any]) -> bool:
    try:
        Rules.from_dict(data)
    except RulesError:
        return False
    return True


@st.composite
def _deck_counts(draw: st.DrawFn, low: int, high: int, jokers: int) -> tuple[int, dict[Any, int]]:
    """``decks`` and ``decks_from_players`` that deal 9 cards a seat at every table size in low..high."""
    one_deck = (13 * 4 + jokers) // CARDS_PER_PLAYER  # seats one deck deals
    thresholds = st.integers(-2, MAX_SEATS + 1)  # any int the validator takes: below 2 it sets every table
    decks = draw(st.integers(1, 2))
    steps = draw(st.dictionaries(thresholds, st.integers(1, 2), max_size=3))

    def decks_for(n: int) -> int:
        return max([(t, d) for t, d in steps.items() if t <= n], default=(0, decks))[1]

    if any(decks_for(n) == 1 for n in range(max(low, one_deck + 1), high + 1)):  # too few cards: two decks from t
        t = draw(st.integers(0, one_deck + 1))
        steps = {k: d for k, d in steps.items() if k < t} | {t: 2}
    as_text = draw(st.booleans())  # JSON's string keys, or YAML's ints
    return decks, {(str(t) if as_text else t): d for t, d in steps.items()}


@st.composite
def _ranks(draw: st.DrawFn, jokers: int) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """rank_order, powers, first_player_ignores: every rank of the deck outside the order is an anytime power
    card (reset, invisible or the Joker), as the validator asks."""
    in_deck = [*NORMAL_RANKS, *(["X"] if jokers else [])]
    order = draw(st.permutations(in_deck).flatmap(lambda p: st.integers(1, len(p)).map(lambda k: list(p[:k]))))
    powers: dict[str, list[str]] = {}
    for rank in in_deck:
        names = set(draw(st.sets(st.sampled_from(_NO_JOKER), max_size=3)))
        if rank == "X":
            names.add("joker")
        if "invisible" in names:
            names -= {"reset", "cap", "joker"} if rank != "X" else {"invisible"}
        if rank not in order:
            names -= {"cap"}
            names.add("anytime")
            if not names & {"reset", "joker", "invisible"}:
                names |= {draw(st.sampled_from(("reset", "invisible")))}
                if "invisible" in names:
                    names -= {"reset"}
        if names:
            powers[rank] = draw(st.permutations(sorted(names)))  # any order: the reader sorts them
        elif draw(st.booleans()):
            powers[rank] = draw(st.sampled_from(([], None)))  # a rank listed without powers, or left blank
    ignores = draw(st.lists(st.sampled_from(order), unique=True, max_size=3))
    return order, powers, ignores


@st.composite
def rule_files(draw: st.DrawFn) -> dict[str, Any]:
    """A rules mapping (the keys of a rules YAML file) that ``Rules.from_dict`` accepts."""
    low = draw(st.integers(2, MAX_SEATS))
    high = draw(st.integers(low, MAX_SEATS))
    jokers = draw(st.integers(0, JOKERS_PER_DECK_MAX))
    decks, steps = draw(_deck_counts(low, high, jokers))
    order, powers, ignores = draw(_ranks(jokers))
    data: dict[str, Any] = {
        "name": draw(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12)),
        "description": draw(st.text(min_size=1, max_size=20)),
        "players": {"min": low, "max": high},
        "decks": decks,
        "decks_from_players": steps or draw(st.sampled_from(({}, None))),
        "jokers_per_deck": jokers,
        "rank_order": order,
        "powers": powers or draw(st.sampled_from(({}, None))),
        "run_burn": draw(st.none() | st.integers(2, 8)),
        "snatch": draw(st.booleans()),
        "face_up": draw(st.sampled_from(FACE_UP_MODES)),
        "voluntary_pickup": draw(st.booleans()),
        "first_player": draw(st.sampled_from(FIRST_PLAYER_RULES)),
        "first_player_ignores": ignores,
        "opener_plays_lowest": draw(st.booleans()),
        "next_game": draw(st.sampled_from(NEXT_GAME_RULES)),
        "max_decisions": draw(st.integers(1, 2**31)),
    }
    assert _valid(data), data  # built valid: a failure here is the strategy's (or the validator's) fault
    if draw(st.booleans()):  # extend a preset: keep some keys as overrides
        base = {"name": data["name"], "extends": draw(st.sampled_from(PRESETS))}
        kept = {key: data[key] for key in draw(st.sets(st.sampled_from(_OPTIONAL_KEYS)))}
        if _valid(base | kept):
            return base | kept
    for key in draw(st.permutations(_OPTIONAL_KEYS)):  # leave keys out where the default keeps the file valid
        if draw(st.booleans()):
            fewer = {k: v for k, v in data.items() if k != key}
            if _valid(fewer):
                data = fewer
    return data


def rule_sets() -> st.SearchStrategy[Rules]:
    return rule_files().map(Rules.from_dict)


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, int, int]:
    """(rules, seats, seed) of a deal: a generated rule set, or now and then a preset."""
    rules = draw(st.one_of(rule_sets(), rule_sets(), st.sampled_from(PRESETS).map(load_rules)))
    return rules, draw(st.integers(rules.min_players, rules.max_players)), draw(st.integers(0, 2**32 - 1))


def new_game(table: tuple[Rules, int, int]) -> Game:
    rules, seats, seed = table
    return Game.new(rules, seats, seed=seed)
