"""Edge cases across RULES.md sections 1-3, and the next game of a match.

Positions: pile bottom -> top; seat 0 acts unless `current` says otherwise.
Rank tokens get distinct suits (see tests.helpers.make_state).
"""


import numpy as np
import pytest

from shithead_env import Action, Game, load_rules
from tests.helpers import (
    PASS,
    PICKUP,
    P,
    bystander,
    expected_lowest_opener,
    finish_swap,
    legal,
    pass_windows,
    play,
    play_ranks,
    position,
    ranks,
)

# =========================================================== more edge cases


def test_joker_alone_on_pile_pickup_takes_nothing_into_hand():
    g = position("power_deck", [{"hand": "K"}, bystander("6 9"), bystander("6 9")], pile="XR")
    assert legal(g) == {PICKUP}
    g.step(PICKUP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ["K"]
    assert d["burned"] == ["XR"] and d["pile"] == []
    assert g.current_player == 1


def test_pub_window_when_skips_give_the_player_its_own_turn():
    # pub, 4 players: seat 0 lays 8 8 8 (3 skips: the turn comes back to it);
    # seat 1 holds the fourth 8 and is asked.
    players = [{"hand": "8 8 8 K"}, bystander("8 6"), bystander("6 9"), bystander("7 9", "Q")]
    g = position("pub", players, pile="5")
    play(g, "8", 3)
    d = g.to_dict()
    assert d["phase"] == "interrupt"
    assert g.current_player == 1
    assert d["window"]["next"] == 0
    assert legal(g) == {PASS, P("8", 1)}
    g.step(PASS)
    pass_windows(g)
    assert g.current_player == 0


def test_snatch_blocked_by_invisible_on_top():
    # pub: pile K K K, seat 0 lays a 3 on it: the top run is one 3; seat 2's
    # fourth K cannot snatch.
    players = [{"hand": "3 4"}, bystander("6 7"), bystander("K 9"), bystander("Q Q", "A")]
    g = position("pub", players, pile="K K K")
    play(g, "3")
    assert g.to_dict()["phase"] == "play"  # a snatch would need three more 3s: no seat holds three unknown cards
    assert g.current_player == 1


def test_snatch_can_end_the_game():
    # pub, 3 players: seat 0 lays its last cards K K K (safe); seat 2 snatches
    # with its last card (safe); only seat 1 holds cards: it is the loser.
    players = [{"hand": "K K K"}, bystander("6 7"), {"hand": "K"}]
    g = position("pub", players, pile="5")
    play(g, "K", 3)
    assert g.finish_order == [0]
    assert g.current_player == 2
    play(g, "K")
    assert g.is_over
    assert g.finish_order == [0, 2, 1]
    assert g.pile == [] and len(g.burned) == 5  # the snatch burns (5 K K K K) although it ends the game


def test_dump_completing_four_with_last_cards_passes_turn_after_dumper():
    # power_deck 4 players: seat 0 lays 8 8 (next: seat 3); seat 1 dumps its
    # last two 8s: burn, safe; the turn passes to the next active after it.
    players = [{"hand": "8 8 4"}, {"hand": "8 8"}, bystander("6 9"), bystander("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8", 2)
    assert g.current_player == 1
    play(g, "8", 2)
    d = g.to_dict()
    assert d["finish_order"] == [1]
    assert d["pile"] == []
    assert g.current_player == 2


def test_dump_with_two_players():
    # power_deck, 2 players: one 8 gives seat 0 another turn; seat 1 may dump
    # its 8 on it, and seat 0 still has the turn.
    g = position("power_deck", [{"hand": "8 4 K"}, bystander("8 6")], pile="5")
    play(g, "8")
    assert g.to_dict()["phase"] == "interrupt"
    assert g.current_player == 1
    assert g.to_dict()["window"] == {"played_by": 0, "next": 0, "queue": []}
    play(g, "8")
    pass_windows(g)  # seat 0 is asked in the dump's own window: it may hold another 8
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 0


def test_harrogate_burner_takes_face_up_before_acting_again():
    g = position(
        "harrogate",
        [{"hand": "T", "face_up": "4 K", "face_down": "5 5 5"}, bystander("7 9")],
        pile="9",
    )
    play(g, "T")
    assert g.current_player == 0
    assert play_ranks(g) == {"4", "K"}
    play(g, "4")
    p0 = g.to_dict()["players"][0]
    assert p0["face_up"] == [] and ranks(p0["hand"]) == ["K"]
    assert ranks(p0["known"]) == ["K"]


def test_known_cards_leave_known_when_played():
    g = position(
        "dead_last",
        [{"hand": "4 5"}, bystander("6 9"), bystander("6 Q")],
        pile="8 9",
    )
    g.step(PICKUP)
    assert ranks(g.to_dict()["players"][0]["known"]) == ranks("8 9")
    play(g, "6")  # seat 1
    play(g, "6")  # seat 2
    play(g, "9")  # seat 0 plays its known 9
    known = g.to_dict()["players"][0]["known"]
    assert ranks(known) == ["8"]


def swap_state(preset, dealer, done, chooser):
    """Two seats in the swap phase: the last chooser (with two seats, the
    dealer itself) holds 4 cards and 2 face-up cards, making its third pick;
    the other seat has finished its picks."""
    players = [None, None]
    last = dealer  # with two seats the dealer itself chooses last
    players[1 - last] = {"hand": done[0], "face_up": done[1], "face_down": "5 6 7"}
    players[last] = {"hand": chooser[0], "face_up": chooser[1], "face_down": "5 6 7"}
    return position(preset, players, current=last, phase="swap", dealer=dealer)


FIRST_PLAYER_CASES = [
    # preset, dealer, done (hand, face_up), chooser (hand, face_up), pick,
    # expected opener, forced rank
    ("power_deck", 1, ("4 Q Q", "A A A"), ("4 J J 9", "K K"), "9", 0, "4"),
    ("power_deck", 0, ("4 Q Q", "A A A"), ("4 J J 9", "K K"), "9", 1, "4"),
    # 2s and Jokers are not "lowest cards" in power_deck
    ("power_deck", 1, ("2 X K", "A A A"), ("6 9 9 J", "Q Q"), "J", 1, "6"),
    # nobody holds a counting card: left of the dealer, unrestricted
    ("power_deck", 0, ("2 2 X", "A A A"), ("2 2 X K", "Q Q"), "K", 1, None),
    # online_classic ignores 2s and 3s
    ("online_classic", 1, ("2 3 K", "A A A"), ("5 9 9 J", "Q Q"), "J", 1, None),
    ("online_classic", 0, ("3 3 3", "A A A"), ("2 2 2 K", "Q Q"), "K", 1, None),
    ("online_classic", 1, ("6 Q Q", "A A A"), ("6 J J 9", "K K"), "9", 0, None),
    ("online_classic", 0, ("6 Q Q", "A A A"), ("6 J J 9", "K K"), "9", 1, None),
]


@pytest.mark.parametrize("preset,dealer,done,chooser,pick,opener,forced", FIRST_PLAYER_CASES)
def test_first_player_after_swap(preset, dealer, done, chooser, pick, opener, forced):
    g = swap_state(preset, dealer, done, chooser)
    assert g.to_dict()["phase"] == "swap"
    g.step(Action.face_up(pick))
    d = g.to_dict()
    assert d["phase"] == "play"
    assert g.current_player == opener
    assert d["forced_rank"] == forced
    hand_ranks = set(ranks(d["players"][opener]["hand"]))
    if forced is None:
        assert play_ranks(g) == hand_ranks
    else:
        assert play_ranks(g) == {forced}


def test_dumper_who_was_next_goes_out_turn_passes_after_it():
    # power_deck 4 players: seat 0 lays an 8 (next: seat 2); seat 2 dumps its
    # last card, an 8: it is safe and the turn passes to seat 3.
    players = [{"hand": "8 4"}, bystander("6 9"), {"hand": "8"}, bystander("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    pass_windows(g)
    assert g.current_player == 2
    play(g, "8")
    pass_windows(g)
    d = g.to_dict()
    assert d["finish_order"] == [2]
    assert d["phase"] == "play"
    assert g.current_player == 3


# =========================================================== next game of a match


@pytest.mark.parametrize("preset", ["pub", "harrogate"])
def test_next_game_loser_deals_left_of_dealer_opens(preset):
    for loser in range(4):
        g = Game.new(load_rules(preset), num_players=4, seed=loser, previous_loser=loser)
        d = g.to_dict()
        assert d["dealer"] == loser
        finish_swap(g, np.random.default_rng(loser))
        assert g.current_player == (loser + 1) % 4


def test_next_game_power_deck_same_as_first():
    for seed in range(10):
        g = Game.new(load_rules("power_deck"), num_players=3, seed=seed, previous_loser=0)
        finish_swap(g, np.random.default_rng(seed))
        d = g.to_dict()
        seat, rank = expected_lowest_opener(d, "3456789TJQKA")
        assert g.current_player == seat
        assert d["forced_rank"] == rank
