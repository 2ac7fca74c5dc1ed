"""Inference from public history: what forced pickups and lowest-card openings narrow, and that it stays sound."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shithead_env import Action, Game, Knowledge, StateError
from shithead_env.cards import NUM_RANKS, rank_index
from shithead_env.determinize import determinize, determinize_knowledge
from shithead_env.inference import ALL_RANKS, fits, hidden_cards, match, narrow, play_hidden, ranks_mask
from tests.helpers import (
    PLAYER_RANGE,
    PRESETS,
    expected_lowest_opener,
    forced_pickup_game,
    make_state,
    position,
    random_action,
)

LOW_ON_KING = ["4", "5", "6", "7", "8", "9", "J", "Q"]  # dead_last: what may not be played on a K


def mask(names: str) -> int:
    return ranks_mask([rank_index(name) for name in names.split()])


def hidden_of(game: Game, seat: int) -> list[int]:
    return hidden_cards(game.hands[seat], game.known[seat])


# ------------------------------------------------------------ the narrowing itself
def test_narrow_covers_every_hidden_card_and_ignores_no_news():
    assert narrow([], 3, mask("4 5")) == [mask("4 5")] * 3
    assert narrow([mask("4 5 6")], 2, mask("5 6 7")) == [mask("5 6"), mask("5 6 7")]
    assert narrow([mask("4")], 2, ALL_RANKS) == [mask("4")]


def test_play_hidden_drops_the_narrowest_card_allowing_the_rank_and_widens_the_others():
    assert play_hidden([mask("4"), mask("4 5 6")], 2, rank_index("4")) == [mask("4 5 6")]
    # Not nested: whichever of the two it was, the other may now be what the dropped one allowed.
    assert play_hidden([mask("4 5"), mask("4 6 7")], 2, rank_index("4")) == [mask("4 5 6 7")]
    # A rank no narrowed card allows came from an un-narrowed card.
    assert play_hidden([mask("4 5")], 2, rank_index("K")) == [mask("4 5")]
    with pytest.raises(ValueError, match="unsound"):
        play_hidden([mask("4 5")], 1, rank_index("K"))


def test_fits_is_a_matching_not_a_per_card_test():
    cards = [rank_index("4") * 4, rank_index("5") * 4]
    assert fits([mask("4 5"), mask("4")], cards)
    assert not fits([mask("4"), mask("4")], cards)
    assert not fits([mask("4")] * 3, cards)


@settings(max_examples=300, deadline=None, database=None)
@given(st.data())
def test_play_hidden_stays_sound_whichever_card_was_played(data):
    """Any hand fitting the narrowing still fits after any of its cards is played (the module doc's claim)."""
    ranks = data.draw(st.lists(st.integers(0, NUM_RANKS - 1), min_size=1, max_size=6))
    narrowed_count = data.draw(st.integers(0, len(ranks)))
    masks = [
        (1 << rank) | data.draw(st.integers(0, ALL_RANKS - 1)) & (ALL_RANKS - 1) for rank in ranks[:narrowed_count]
    ]
    masks = [m for m in masks if m != ALL_RANKS]
    cards = [rank * 4 for rank in ranks]
    assert fits(masks, cards)
    played = data.draw(st.integers(0, len(cards) - 1))
    left = cards[:played] + cards[played + 1 :]
    assert fits(play_hidden(masks, len(cards), ranks[played]), left)


# ------------------------------------------------------------ what the engine narrows
def test_a_forced_pickup_narrows_the_hidden_cards_to_what_could_not_be_played():
    game = forced_pickup_game()
    game.step(Action.pickup())
    assert game.narrowed[0] == [mask(" ".join(LOW_ON_KING))] * 3
    assert game.view(1)["players"][0]["narrowed"] == [LOW_ON_KING] * 3
    assert game.view(1)["players"][0]["known"] == ["KC"]
    assert "hand: 4 cards (known: KC) (by its play, 3 of them 4/5/6/7/8/9/J/Q)" in game.render(1)


def test_playing_a_hidden_card_uses_up_one_narrowed_card():
    low = mask(" ".join(LOW_ON_KING))
    game = forced_pickup_game()
    game.step(Action.pickup())
    game.step(Action.play("J"))  # seat 1
    assert game.legal_actions() == [Action.play("K")]  # seat 0: only its known K beats the J
    game.step(Action.play("K"))
    game.step(Action.pickup())  # seat 1 holds 8 8: forced too
    assert game.narrowed == [[low] * 3, [low] * 2]
    game.step(Action.play("9"))  # seat 0, on the empty pile, plays a hidden card
    assert game.narrowed == [[low] * 2, [low] * 2]


def test_a_voluntary_pickup_reveals_nothing():
    game = position("power_deck", [{"hand": "4 K", "face_up": "A A A"}, {"hand": "8 8 J", "face_up": "Q Q Q"}], "5")
    assert Action.pickup() in game.legal_actions() and len(game.legal_actions()) > 1
    game.step(Action.pickup())
    assert game.narrowed[0] == []


@pytest.mark.parametrize("seed", range(12))
def test_a_lowest_card_opening_narrows_every_hand(seed):
    """online_classic: nobody held a counted card lower than the opener's, no earlier seat an equal one."""
    game = Game.new("online_classic", 4, seed)
    while game.phase == "swap":
        game.step(game.legal_actions()[0])
    state = game.to_dict()
    order = "456789TJQKA"  # rank_order without the ignored 2 and 3
    opener, low = expected_lowest_opener(state, order)
    assert game.current == opener
    n, left = 4, (state["dealer"] + 1) % 4
    for seat in range(n):
        before = (seat - left) % n < (opener - left) % n
        allowed = [r for r in "23" + order if r in "23" or order.index(r) > order.index(low) - (not before)]
        expected = [mask(" ".join(allowed))] * 3 if len(allowed) < 13 else []
        if seat == opener:
            expected = (expected[:-1] if expected else []) + [mask(low)]
        assert game.narrowed[seat] == expected, seat
        assert fits(game.narrowed[seat], hidden_of(game, seat))


@settings(max_examples=40, deadline=None, database=None)
@given(st.sampled_from(PRESETS), st.integers(0, 2**31 - 1))
def test_the_narrowing_always_fits_the_true_hidden_cards(preset, seed):
    """Sound at every step of random games: the real hidden cards can be matched into the narrowed ranks."""
    n = 2 + seed % (PLAYER_RANGE[preset][1] - 1)
    game = Game.new(preset, n, seed)
    rng = np.random.default_rng(seed)
    while not game.is_over:
        game.step(random_action(game, rng))
        for seat in range(n):
            assert fits(game.narrowed[seat], hidden_of(game, seat))
            assert len(game.narrowed[seat]) <= len(hidden_of(game, seat))


# ------------------------------------------------------------ what the determinizer deals
def test_a_sampled_deal_never_gives_a_forced_picker_a_card_it_could_have_played():
    game = forced_pickup_game()
    game.step(Action.pickup())
    knowledge = Knowledge.from_game(game, 1)
    rng = np.random.default_rng(0)
    for _ in range(200):
        sample = determinize_knowledge(knowledge, rng)
        assert {card >> 2 for card in hidden_of(sample, 0)} <= {rank_index(r) for r in LOW_ON_KING}
        assert sample.narrowed == game.narrowed
    forgetful = {
        card >> 2
        for _ in range(200)
        for card in hidden_of(determinize_knowledge(knowledge.without_inference(), rng), 0)
    }
    assert forgetful - {rank_index(r) for r in LOW_ON_KING}, "without the inference, playable ranks are dealt too"


@settings(max_examples=30, deadline=None, database=None)
@given(st.sampled_from(PRESETS), st.integers(0, 2**31 - 1))
def test_sampled_hidden_hands_fit_what_each_seat_knows(preset, seed):
    game = Game.new(preset, 4, seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(5, 150))):
        if game.is_over:
            return
        game.step(random_action(game, rng))
    for seat in range(4):
        sample = determinize(game.view(seat), rng)
        assert sample.view(seat) == game.view(seat)
        for other in range(4):
            assert fits(game.narrowed[other], hidden_of(sample, other))


def test_an_older_view_without_narrowed_still_has_the_opener_hold_its_forced_rank():
    game = Game.new("power_deck", 3, 1)
    while game.phase == "swap":
        game.step(game.legal_actions()[0])
    opener, rank = game.current, game.forced_rank
    assert rank is not None
    seat = (opener + 1) % 3
    view = game.view(seat)
    for player in view["players"]:
        del player["narrowed"]
    knowledge = Knowledge.from_view(view)
    assert knowledge.narrowed[opener] == [1 << rank] and not any(knowledge.narrowed[s] for s in range(3) if s != opener)
    assert knowledge.without_inference().narrowed == knowledge.narrowed
    sample = determinize(view, np.random.default_rng(0))
    assert any(card >> 2 == rank for card in sample.hands[opener])


def test_a_knowledge_with_another_hand_has_that_hands_legal_moves_and_leaves_the_original_as_it_was():
    game = forced_pickup_game()
    seat = game.current
    knowledge = Knowledge.from_game(game, seat)
    legal, hand = list(knowledge.legal), list(knowledge.hand)
    ace = rank_index("A") << 2
    other = knowledge.with_hand([ace])
    assert other.hand == [ace] and other.legal == other.rules_legal()
    assert Action.play("A") in other.legal and Action.play("A") not in legal
    assert knowledge.hand == hand and knowledge.legal == legal


# ------------------------------------------------------------ formats and bad input
def test_state_round_trips_the_narrowing():
    game = forced_pickup_game()
    game.step(Action.pickup())
    again = Game.from_dict(game.to_dict())
    assert again.narrowed == game.narrowed and again == game


@pytest.mark.parametrize(
    ("narrowed", "message"),
    [
        ("4", "list of rank lists"),
        ([[]], "non-empty list"),
        ([["4", "Z"]], "unknown rank"),
        ([["4", "4"]], "distinct ranks"),
        ([["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "X"]], "not every rank"),
        ([["K"]], "does not fit"),
        ([["4"], ["5"], ["9"], ["4"]], "does not fit"),
    ],
)
def test_a_bad_narrowing_in_a_state_is_refused_by_name(narrowed, message):
    state = make_state("dead_last", [{"hand": "4 5 9", "face_up": "A A A"}, {"hand": "8 8 J"}], pile="K")
    state["players"][0]["narrowed"] = narrowed
    with pytest.raises(StateError, match=message):
        Game.from_dict(state)


def test_a_view_narrowing_more_cards_than_a_hand_hides_is_refused():
    game = forced_pickup_game()
    game.step(Action.pickup())
    view = game.view(1)
    view["players"][0]["narrowed"].append(["4"])
    with pytest.raises(StateError, match="more cards than its hand hides"):
        Knowledge.from_view(view)
    view = game.view(0)
    view["players"][0]["narrowed"] = [["K"]]
    with pytest.raises(StateError, match="own hidden hand cards"):
        Knowledge.from_view(view)


def _post_swap_view(seed: int) -> dict:
    game = Game.new("dead_last", 4, seed=seed)
    while game.phase == "swap":
        game.step(game.legal_actions()[0])
    return game.view(game.current)


def test_a_view_whose_narrowed_cards_fit_no_deal_of_the_unseen_cards_is_refused():
    view = _post_swap_view(3)  # the campaign's example: a Joker rank, without Jokers in the deck
    view["players"][(view["seat"] + 3) % 4]["narrowed"] = [["X"]]
    with pytest.raises(StateError, match="narrowed fit no deal"):
        Knowledge.from_view(view)
    # Each seat's narrowing fits on its own, but together they ask for more of a rank than is unseen.
    view = _post_swap_view(3)
    k = Knowledge.from_view(view)
    counts = k.unseen_counts(per_rank=True)
    rank = min(range(NUM_RANKS), key=lambda r: (counts[r] == 0, counts[r]))
    others = [s for s in range(4) if s != k.seat]
    masks = [[] for _ in range(4)]
    for i in range(counts[rank] + 1):
        masks[others[i % 3]].append(["23456789TJQKAX"[rank]])
    for s in others:
        view["players"][s]["narrowed"] = masks[s]
    with pytest.raises(StateError, match="narrowed fit no deal"):
        Knowledge.from_view(view)
    for s in others:  # one fewer: the same narrowing fits, and every deal honours it
        view["players"][s]["narrowed"] = masks[s][:-1] if s == others[counts[rank] % 3] else masks[s]
    k = Knowledge.from_view(view)
    sample = determinize_knowledge(k, np.random.default_rng(0))
    assert sum(card >> 2 == rank for s in others for card in sample.hands[s]) == counts[rank]


def test_match_repairs_an_earlier_pick_and_finds_no_assignment_only_when_none_exists():
    a, b = rank_index("4") << 2, rank_index("5") << 2  # one card of each rank
    # The wide mask takes the first free fitting card, the only 4; the narrow one then moves it to the 5.
    assert match([mask("4 5"), mask("4")], [a, b]) == [1, 0]
    assert match([mask("4 5"), mask("4"), mask("5")], [a, b, b + 1]) == [1, 0, 2]
    assert match([mask("4"), mask("4")], [a, b]) is None
    assert match([mask("4")], []) is None and match([], []) == []
