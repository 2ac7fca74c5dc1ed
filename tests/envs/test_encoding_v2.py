"""Encoding version 2 field by field: version 1's cells scaled by their bounds, and each new field on positions
whose answer is known (unseen cards, cards left, hidden hand cards, may_hold after a forced pickup, legal ranks)."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from shithead_env import ENCODINGS, PRESETS, Action, Game, Knowledge, encode_knowledge, encode_observation
from shithead_env.actions import MAX_COPIES
from shithead_env.cards import NUM_RANKS, RANKS, rank_index
from shithead_env.encoding import MAX_CARDS
from shithead_env.inference import ranks_mask
from tests.helpers import forced_pickup_game, make_state, position, random_positions

V1, V2 = ENCODINGS[1], ENCODINGS[2]
LOW_ON_KING = "4 5 6 7 8 9 J Q"  # dead_last: the ranks that may not be played on a K


def ranks_vector(names: str) -> np.ndarray:
    cells = np.zeros(NUM_RANKS)
    for name in names.split():
        cells[rank_index(name)] = 1
    return cells


def sized(counts) -> np.ndarray:
    """Size cells as version 2 stores them: sqrt(count / MAX_CARDS), as float32."""
    return np.sqrt(np.asarray(counts, np.float64) / MAX_CARDS).astype(np.float32)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_version_1_field_keeps_its_meaning_scaled_by_its_bound(preset: str) -> None:
    for game in random_positions(preset, None, seed=3, games=4, every=5):
        for seat in range(game.num_players):
            k = Knowledge.from_game(game, seat)
            v1, v2 = encode_knowledge(k, 1), encode_knowledge(k, 2)
            for f in V1.fields:
                if f.name == "decisions":  # v2 reads it against the default cap: test below
                    continue
                raw, scaled = V1.read(v1, f.name), V2.read(v2, f.name)
                if V2.field_named(f.name).scale == "sqrt":
                    expected = np.sqrt(raw.astype(np.float64) / f.high).astype(np.float32)
                else:
                    expected = raw / np.float32(f.high)
                np.testing.assert_array_equal(scaled, expected, err_msg=f.name)


def test_decisions_read_the_same_whatever_the_games_own_cap() -> None:
    """A game capped at 600 for training reads as the same game under the rules' 5,000."""
    for cap in (None, 600, 9000):
        game = Game.new("dead_last", 4, seed=8, max_decisions=cap)
        for _ in range(60):
            game.step(game.legal_actions()[0])
        cell = V2.read(encode_observation(game, 0, version=2), "decisions")
        assert cell == np.float32(np.sqrt(60 / 5000)), cap
    long = Game.new("dead_last", 4, seed=8, max_decisions=9000)
    long.decisions = 7000  # past the default cap: saturates at 1
    assert V2.read(encode_observation(long, 0, version=2), "decisions") == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_the_new_per_seat_fields_follow_the_seats_knowledge(preset: str) -> None:
    """unseen = ``unseen_counts`` / 8; per slot, cards_left and hidden_hand sqrt-scaled; may_hold sums right."""
    for game in random_positions(preset, None, seed=4, games=4, every=5):
        n = game.num_players
        for seat in range(n):
            k = Knowledge.from_game(game, seat)
            obs = encode_knowledge(k, 2)
            np.testing.assert_array_equal(V2.read(obs, "unseen"), np.float32(k.unseen_counts(per_rank=True)) / 8)
            order = [(seat + slot) % n for slot in range(n)]
            left = np.array([k.cards_left(s) for s in order], np.float64)
            hidden = np.array([k.hand_sizes[s] - len(k.known[s]) for s in order], np.float64)
            np.testing.assert_array_equal(V2.read(obs, "cards_left")[:n], sized(left))
            np.testing.assert_array_equal(V2.read(obs, "hidden_hand")[:n], sized(hidden))
            assert not V2.read(obs, "cards_left")[n:].any() and not V2.read(obs, "may_hold")[n:].any()
            may = V2.read(obs, "may_hold")
            for slot in range(n):
                if hidden[slot] == 0:
                    assert not may[slot].any()
                else:  # every hidden card may be at least one rank: the shares sum to one or more
                    assert may[slot].sum() >= 1 - 1e-6 and may[slot].max() <= 1


def test_unseen_counts_a_fresh_deal_from_the_observers_seat() -> None:
    game = Game.new("dead_last", 2, seed=5)
    while game.phase == "swap":
        game.step(game.legal_actions()[0])
    for seat in range(2):
        expected = np.full(NUM_RANKS, 4.0)
        expected[rank_index("X")] = 0  # no Jokers in dead_last
        for card in game.hands[seat] + game.face_up[0] + game.face_up[1] + game.pile:
            expected[card >> 2] -= 1
        obs = encode_observation(game, seat)
        np.testing.assert_array_equal(V2.read(obs, "unseen"), np.float32(expected) / MAX_COPIES)


def test_may_hold_after_a_forced_pickup_narrows_a_hand() -> None:
    game = forced_pickup_game()
    before = V2.read(encode_observation(game, 1), "may_hold")[1].copy()  # seat 0 seen from seat 1: slot 1
    np.testing.assert_array_equal(before, ranks_vector("2 3 4 5 6 7 8 9 T J Q K A"))  # any rank of the deck
    game.step(Action.pickup())
    obs = encode_observation(game, 1)
    # seat 0 now holds the known K and 3 hidden cards, each of a rank that could not be played on a K.
    np.testing.assert_array_equal(V2.read(obs, "may_hold")[1], ranks_vector(LOW_ON_KING))
    assert V2.read(obs, "known")[1][rank_index("K")] == np.float32(1 / 8)
    np.testing.assert_array_equal(V2.read(obs, "hidden_hand")[:2], sized([3, 3]))
    np.testing.assert_array_equal(V2.read(obs, "cards_left")[:2], sized([6, 10]))  # slot 0 = seat 1
    # The observer's own slot says what the others know about its hand: seat 0 sees the same narrowing.
    np.testing.assert_array_equal(V2.read(encode_observation(game, 0), "may_hold")[0], ranks_vector(LOW_ON_KING))
    assert not np.array_equal(V2.read(obs, "may_hold")[1], before), "the test would not catch a missing narrowing"


def test_may_hold_mixes_narrowed_and_free_hidden_cards() -> None:
    """One of seat 1's three hidden cards narrowed to 3 or 4: 3 and 4 get (1 + 2) / 3, the other ranks 2 / 3."""
    game = position("dead_last", [{"hand": "4 5 9", "face_up": "A A A"}, {"hand": "8 8 J", "face_up": "Q Q Q"}], "K")
    k = copy.copy(Knowledge.from_game(game, 0))  # a hand-built position conserves no cards: no view to parse
    k.narrowed = [[], [ranks_mask([rank_index("3"), rank_index("4")])]]
    obs = encode_knowledge(k, 2)
    expected = ranks_vector("2 3 4 5 6 7 8 9 T J Q K A") * 2 / 3
    expected[[rank_index("3"), rank_index("4")]] = 1
    np.testing.assert_allclose(V2.read(obs, "may_hold")[1], expected, rtol=1e-7)
    assert V2.read(obs, "may_hold")[1][rank_index("X")] == 0  # no Jokers in this deck


def test_may_hold_allows_jokers_only_where_the_deck_has_them() -> None:
    game = Game.new("power_deck", 3, seed=0)
    for seat in range(3):
        may = V2.read(encode_observation(game, seat), "may_hold")
        assert may[1][rank_index("X")] == 1 and may[2][rank_index("X")] == 1


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_ranks_and_pickup_are_the_observers_legal_plays(preset: str) -> None:
    for game in random_positions(preset, None, seed=6, games=3, every=3):
        for seat in range(game.num_players):
            obs = encode_observation(game, seat)
            legal = game.legal_actions() if seat == game.current else []
            expected = np.zeros(NUM_RANKS, np.float32)
            for action in legal:
                if action.kind == "play":
                    expected[rank_index(action.rank)] = 1
            np.testing.assert_array_equal(V2.read(obs, "legal_ranks"), expected)
            assert V2.read(obs, "legal_pickup")[0] == (Action.pickup() in legal)


def test_legal_ranks_on_a_hand_built_turn() -> None:
    """dead_last on a 7 (at most): the 2, 5 and 7 go, the K does not; nothing for the seat not to act."""
    game = position("dead_last", [{"hand": "2 5 7 K", "face_up": "A A A"}, {"hand": "8 8 J", "face_up": "Q Q Q"}], "7")
    legal = {a.rank for a in game.legal_actions() if a.kind == "play"}
    obs = encode_observation(game, 0)
    np.testing.assert_array_equal(V2.read(obs, "legal_ranks"), ranks_vector(" ".join(sorted(legal))))
    assert "K" not in legal and V2.read(obs, "legal_ranks")[rank_index("K")] == 0
    assert V2.read(obs, "legal_ranks").sum() >= 2
    other = encode_observation(game, 1)
    assert not V2.read(other, "legal_ranks").any() and V2.read(other, "legal_pickup")[0] == 0
    forced = encode_observation(forced_pickup_game(), 0)
    assert not V2.read(forced, "legal_ranks").any() and V2.read(forced, "legal_pickup")[0] == 1


def test_version_2_reads_only_the_knowledge() -> None:
    """A Knowledge copy with the game link cut encodes the same: nothing is read past the seat's view."""
    game = forced_pickup_game()
    game.step(Action.pickup())
    k = Knowledge.from_game(game, 1)
    legal = k.legal
    cut = copy.copy(k)
    cut._game = None
    cut._legal = legal
    assert np.array_equal(encode_knowledge(cut, 2), encode_knowledge(k, 2))


def test_make_state_positions_encode_with_ranks_in_the_documented_order() -> None:
    """Rank index r of every per-rank field is RANKS[r] (the docs' order)."""
    game = Game.from_dict(make_state("dead_last", [{"hand": "2 A", "face_up": "3"}, {"hand": "K", "face_up": "Q"}]))
    hand = V2.read(encode_observation(game, 0), "hand")
    assert [RANKS[r] for r in np.flatnonzero(hand)] == ["2", "A"]
