"""Property tests over random games of every preset.

Hypothesis draws the preset, the player count and the seed; a numpy Generator
seeded from it picks uniformly among the legal actions.
"""

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shithead_env import (
    NUM_ACTIONS,
    Action,
    Game,
    IllegalActionError,
    load_rules,
)
from shithead_env.cards import card_names
from shithead_env.phases import INTERRUPT, PLAY
from tests.helpers import (
    PLAYER_RANGE,
    PRESETS,
    all_cards,
    engine_state,
    full_deck,
    game_cards,
    random_action,
    random_positions,
)

_RULES = {}


def rules(preset):
    if preset not in _RULES:
        _RULES[preset] = load_rules(preset)
    return _RULES[preset]


GAMES = st.sampled_from(PRESETS).flatmap(
    lambda p: st.tuples(st.just(p), st.integers(*PLAYER_RANGE[p]), st.integers(0, 2**32 - 1))
)

FAST = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def new(preset, n, seed):
    return Game.new(rules(preset), num_players=n, seed=seed)


def is_sub_multiset(small, big):
    return not (Counter(small) - Counter(big))


# ---------------------------------------------------------------- invariants


@FAST
@given(GAMES)
def test_invariants_at_every_step(params):
    preset, n, seed = params
    deck = None
    for g in random_positions(rules(preset), n, seed):
        # card conservation: the deal is the full deck, every later position holds the same cards
        cards = game_cards(g)
        if deck is None:
            assert Counter(card_names(cards)) == full_deck(preset, n)
            assert all_cards(g.to_dict()) == full_deck(preset, n)
            deck = cards
        assert cards == deck
        # known is a sub-multiset of the hand
        for known, hand in zip(g.known, g.hands, strict=True):
            assert is_sub_multiset(known, hand)
        # safe players hold no cards (the loser, listed last once over, does)
        safe = g.finish_order[:-1] if g.is_over and not g.truncated else g.finish_order
        for s in safe:
            assert not (g.hands[s] or g.face_up[s] or g.face_down[s])
        if g.is_over:
            assert all_cards(g.to_dict()) == full_deck(preset, n)
            assert g.current_player is None
            assert g.legal_actions() == []
            break
        acts = g.legal_actions()
        assert len(acts) >= 1
        assert g.current_player == g.current
        if g.phase in (PLAY, INTERRUPT):
            assert g.current_player not in g.finish_order
        # the integer layout round-trips
        for a in acts:
            assert 0 <= a.index < NUM_ACTIONS
            assert Action.from_index(a.index) is a
            assert Action.from_dict(a.to_dict()) is a
        assert len(set(acts)) == len(acts)


@FAST
@given(GAMES)
def test_illegal_actions_raise_and_leave_state_unchanged(params):
    preset, n, seed = params
    rng = np.random.default_rng(seed)
    tried = 0
    for step, g in enumerate(random_positions(rules(preset), n, seed, rng=rng)):
        if g.is_over:
            break
        if step == 0 or rng.random() < 0.2:
            legal_idx = {a.index for a in g.legal_actions()}
            illegal = [i for i in range(NUM_ACTIONS) if i not in legal_idx]
            i = illegal[int(rng.integers(len(illegal)))]
            before = g.to_dict()
            with pytest.raises(IllegalActionError):
                g.step(Action.from_index(i))
            assert g.to_dict() == before
            assert {a.index for a in g.legal_actions()} == legal_idx
            tried += 1
    assert tried > 0


@FAST
@given(GAMES)
def test_to_dict_from_dict_round_trip(params):
    preset, n, seed = params
    rng = np.random.default_rng(seed)
    checks = 0
    for g in random_positions(rules(preset), n, seed, rng=rng):
        if rng.random() < 0.1 or g.is_over:
            d = g.to_dict()
            text = json.dumps(d)
            d2 = json.loads(text)
            assert d2 == d  # JSON-compatible (no tuples, sets, non-str keys)
            g2 = Game.from_dict(d2)
            assert g2.to_dict() == d
            assert g2.current_player == g.current_player
            assert g2.is_over == g.is_over
            assert set(g2.legal_actions()) == set(g.legal_actions())
            # the restored game continues exactly like the original
            if not g.is_over:
                r1 = np.random.default_rng(checks)
                h1, h2 = g.copy(), g2
                for _ in range(10):
                    if h1.is_over:
                        break
                    a = random_action(h1, r1)
                    h1.step(a)
                    h2.step(a)
                    assert engine_state(h1) == engine_state(h2)
                assert h1.to_dict() == h2.to_dict()
            checks += 1
    assert checks > 0


@FAST
@given(GAMES)
def test_to_dict_returns_independent_data(params):
    preset, n, seed = params
    g = new(preset, n, seed)
    d = g.to_dict()
    d["players"][0]["hand"].append("ZZ")
    d["draw_pile"].clear()
    d["current"] = 99
    assert g.to_dict() != d
    d0 = g.to_dict()
    assert "ZZ" not in d0["players"][0]["hand"]
    assert d0["draw_pile"]


# ---------------------------------------------------------------- termination


@settings(
    max_examples=100,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(GAMES)
def test_games_end_or_truncate_within_max_decisions(params):
    preset, n, seed = params
    cap = new(preset, n, seed).to_dict()["max_decisions"]
    assert isinstance(cap, int) and cap > 0
    steps = 0
    for g in random_positions(rules(preset), n, seed):
        if g.is_over:
            break
        assert steps < cap, "game not over after max_decisions decisions"
        steps += 1
    d = g.to_dict()
    assert g.current_player is None
    assert d["phase"] == "over"
    if g.truncated:
        assert steps == cap
        assert d["truncated"] is True
    else:
        # a finished game: every seat is ranked, the loser last and holding cards
        assert sorted(g.finish_order) == list(range(n))
        loser = d["players"][g.finish_order[-1]]
        assert loser["hand"] or loser["face_up"] or loser["face_down"]
        for s in g.finish_order[:-1]:
            p = d["players"][s]
            assert not (p["hand"] or p["face_up"] or p["face_down"])


@FAST
@given(GAMES, st.integers(5, 60))
def test_small_decision_cap_truncates(params, cap):
    preset, n, seed = params
    g = new(preset, n, seed)
    d = g.to_dict()
    d["max_decisions"] = cap
    steps = 0
    for g in random_positions(Game.from_dict(d), seed=seed):
        if g.is_over:
            break
        steps += 1
        assert steps <= cap
    # the swap phase alone takes 3 decisions per seat; a game this short
    # cannot be finished when the cap is below it
    if cap < 3 * n:
        assert g.truncated
    if g.truncated:
        assert steps == cap
        assert g.legal_actions() == []


# ---------------------------------------------------------------- determinism


@FAST
@given(GAMES)
def test_same_seed_same_actions_same_game(params):
    preset, n, seed = params
    assert new(preset, n, seed).to_dict() == new(preset, n, seed).to_dict()
    r1, r2 = np.random.default_rng(seed), np.random.default_rng(seed)
    first, second = random_positions(rules(preset), n, seed, rng=r1), random_positions(rules(preset), n, seed, rng=r2)
    for g1, g2 in zip(first, second, strict=True):
        if g1.is_over:
            break
        a1, a2 = random_action(g1, r1), random_action(g2, r2)
        assert a1 is a2
        g1.step(a1)
        g2.step(a2)
    assert g1.to_dict() == g2.to_dict()
    assert g1.is_over == g2.is_over


@FAST
@given(GAMES)
def test_copy_is_independent(params):
    preset, n, seed = params
    rng = np.random.default_rng(seed)
    copies = 0
    for step, g in enumerate(random_positions(rules(preset), n, seed, rng=rng)):
        if g.is_over:
            break
        if step == 0 or rng.random() < 0.1:
            c = g.copy()
            before = g.to_dict()
            assert c.to_dict() == before
            a = random_action(c, rng)
            c.step(a)
            assert g.to_dict() == before  # the original did not move
            g.step(a)
            assert g.to_dict() == c.to_dict()
            # and the other way round
            c2 = g.copy()
            if not g.is_over:
                snap = c2.to_dict()
                g.step(random_action(g, rng))
                assert c2.to_dict() == snap
            copies += 1  # the generator goes on from the steps taken here
    assert copies > 0
    assert g.is_over
