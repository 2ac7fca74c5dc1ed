"""determinize(view, rng): sampled games agree with the view and conserve the deck."""

from __future__ import annotations

import itertools
from collections import Counter

import fastjsonschema
import numpy as np
import pytest

from agents.protocol import load_schema
from shithead_env import PRESETS, Game, determinize, load_rules
from shithead_env.cards import NUM_RANKS
from shithead_env.knowledge import Knowledge
from tests.helpers import random_positions


def unfinished_positions(preset: str, count: int, seed: int) -> list[Game]:
    """Unfinished random games of ``preset``, each stopped at a random moment, every table size sampled."""
    positions = random_positions(preset, None, seed, games=None, depth=200)
    games = list(itertools.islice((game for game in positions if not game.is_over), count))
    assert len(games) == count
    return games


def all_cards(game: Game) -> Counter:
    cards = Counter(game.draw_pile + game.pile + game.burned)
    for s in range(game.num_players):
        cards.update(game.hands[s] + game.face_up[s] + game.face_down[s])
    return cards


@pytest.mark.parametrize("preset", PRESETS)
def test_sampled_game_has_the_same_view_and_deck(preset):
    rng = np.random.default_rng(1)
    for game in unfinished_positions(preset, 25, seed=PRESETS.index(preset)):
        for seat in range(game.num_players):
            view = game.view(seat)
            sample = determinize(view, rng)
            assert sample.view(seat) == view
            assert all_cards(sample) == all_cards(game)
            if seat == game.current:
                assert sample.legal_actions() == game.legal_actions()
            for s in range(game.num_players):
                assert Counter(sample.known[s]) <= Counter(sample.hands[s])


def test_hidden_cards_are_reshuffled_and_own_cards_kept():
    game = unfinished_positions("dead_last", 1, seed=3)[0]
    view = game.view(0)
    rng = np.random.default_rng(0)
    samples = [determinize(view, rng) for _ in range(20)]
    assert all(s.hands[0] == game.hands[0] and s.face_up == game.face_up for s in samples)
    assert len({tuple(s.draw_pile + s.face_down[0]) for s in samples}) > 1


def test_unseen_cards_exclude_everything_public():
    game = unfinished_positions("pub", 1, seed=5)[0]
    k = Knowledge.from_game(game, 1)
    seen = Counter(game.hands[1] + game.pile + game.burned)
    for s in range(game.num_players):
        seen.update(game.face_up[s] + (game.known[s] if s != 1 else []))
    assert Counter(k.unseen()) + seen == all_cards(game)


def test_view_and_game_knowledge_agree():
    for game in unfinished_positions("power_deck", 20, seed=9):
        for seat in range(game.num_players):
            a, b = Knowledge.from_view(game.view(seat)), Knowledge.from_game(game, seat)
            assert a == b and a.to_dict() == b.to_dict()


def test_view_hides_what_the_seat_cannot_know():
    """Two games that differ only in cards seat 0 has not seen give seat 0 equal views."""
    swappable = [g for g in unfinished_positions("dead_last", 40, seed=11) if _hidden_pair(g)]
    assert len(swappable) >= 10, f"only {len(swappable)} of 40 positions have two hidden cards to swap"
    for game in swappable:
        data = game.to_dict()
        hidden = data["players"][1]["face_down"]
        hidden[0], data["draw_pile"][0] = data["draw_pile"][0], hidden[0]
        twin = Game.from_dict(data)
        assert twin.to_dict() != game.to_dict()
        assert twin.view(0) == game.view(0)


def _hidden_pair(game: Game) -> bool:
    """Seat 1 has a face-down card and the draw pile a first card, and they differ (so swapping them shows)."""
    return bool(game.face_down[1] and game.draw_pile) and game.face_down[1][0] != game.draw_pile[0]


@pytest.mark.parametrize("preset", PRESETS)
def test_swap_phase_samples_keep_the_public_opener(preset):
    """The opener fixed at the deal is in the view, and every sample opens with it (None: lowest card)."""
    rules = load_rules(preset)
    rng = np.random.default_rng(2)
    for seed in range(8):
        game = Game.new(rules, max(rules.min_players, min(4, rules.max_players)), seed=seed)
        view = game.view(game.current)
        assert view["opener"] == game.opener
        assert (game.opener is None) == (rules.first_player == "lowest_card")
        assert all(determinize(view, rng).opener == game.opener for _ in range(5))


def test_views_without_an_opener_still_determinize():
    """A view from before ``opener`` was public: a random opener is sampled."""
    game = Game.new("dead_last", 4, seed=0)
    view = game.view(game.current)
    del view["opener"]
    rng = np.random.default_rng(0)
    assert Knowledge.from_view(view).opener is None
    assert len({determinize(view, rng).opener for _ in range(40)}) > 1


def test_view_schema_accepts_views_with_and_without_opener():
    validate = fastjsonschema.compile(load_schema("view"))
    for game in unfinished_positions("dead_last", 5, seed=13):
        view = game.view(game.current)
        validate(view)
        del view["opener"]
        validate(view)


def test_unseen_counts_by_code_and_by_rank_agree():
    for game in unfinished_positions("pub", 10, seed=7):
        k = Knowledge.from_game(game, 0)
        by_code = k.unseen_counts()
        assert k.unseen() == sorted(Counter({c: n for c, n in enumerate(by_code) if n}).elements())
        assert k.unseen_counts(per_rank=True) == [sum(by_code[4 * r : 4 * r + 4]) for r in range(NUM_RANKS)]


def test_one_ranks_copies_left_agree_with_every_ranks():
    """The engine's fast count of a rank nobody has seen (``copies_left``) is ``counts_left``'s."""
    from shithead_env.cards import copies_left, counts_left

    for preset in PRESETS:
        for game in unfinished_positions(preset, 6, seed=5):
            args = (game.rules.decks_for(game.num_players), game.rules.jokers_per_deck)
            seen = (game.pile, game.burned, *game.face_up, *game.known)
            every = counts_left(*args, seen, per_rank=True)
            assert [copies_left(*args, seen, rank) for rank in range(NUM_RANKS)] == every


@pytest.mark.parametrize("preset", PRESETS)
def test_unchecked_later_samples_pass_the_full_check(preset):
    """A Determinizer checks only its first deal; every later one must pass the same check and show the view."""
    from shithead_env.determinize import Determinizer
    from shithead_env.state import check_position

    rng = np.random.default_rng(2)
    for game in unfinished_positions(preset, 12, seed=10 + PRESETS.index(preset)):
        seat = game.current
        view = game.view(seat)
        determinizer = Determinizer(Knowledge.from_game(game, seat))
        for _ in range(5):
            sample = determinizer.sample(rng)
            check_position(sample)
            assert sample.view(seat) == view
            assert all_cards(sample) == all_cards(game)
