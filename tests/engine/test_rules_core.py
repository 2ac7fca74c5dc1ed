"""RULES.md sections 1-3 (and the preset table of section 4), rule by rule.

Positions: pile bottom -> top; seat 0 acts unless `current` says otherwise.
Rank tokens get distinct suits (see tests.helpers.make_state).
"""

import os
from collections import Counter

import numpy as np
import pytest

from shithead_env import Action, Game, IllegalActionError, load_rules
from tests.helpers import (
    PRESETS,
    all_cards,
    expected_lowest_opener,
    finish_swap,
    full_deck,
    legal,
    pass_windows,
    play,
    play_ranks,
    position,
    ranks,
)

PICKUP = Action.pickup()
FLIP = Action.flip()
PASS = Action.pass_()
P = Action.play


def other(hand="4 6", face_down="J", face_up=""):
    """A bystander seat that keeps holding cards."""
    return {"hand": hand, "face_up": face_up, "face_down": face_down}


def new_game(preset, n, seed):
    return Game.new(load_rules(preset), num_players=n, seed=seed)


# =========================================================== 1. deal


DEAL_CASES = [
    ("dead_last", 2),
    ("dead_last", 5),
    ("online_classic", 2),
    ("online_classic", 5),
    ("online_classic", 6),
    ("online_classic", 10),
    ("pub", 2),
    ("pub", 4),
    ("harrogate", 5),
    ("harrogate", 6),
    ("harrogate", 10),
    ("power_deck", 2),
    ("power_deck", 5),
]


@pytest.mark.parametrize("preset,n", DEAL_CASES)
def test_deal_three_three_three_and_draw_pile(preset, n):
    g = new_game(preset, n, seed=11)
    d = g.to_dict()
    assert d["phase"] == "swap"
    assert len(d["players"]) == n
    for p in d["players"]:
        assert len(p["face_down"]) == 3
        assert len(p["hand"]) + len(p["face_up"]) == 6
    deck = full_deck(preset, n)
    assert len(d["draw_pile"]) == sum(deck.values()) - 9 * n
    assert d["pile"] == [] and d["burned"] == []
    assert all_cards(d) == deck


@pytest.mark.parametrize(
    "preset,n,decks",
    [
        ("online_classic", 5, 1),
        ("online_classic", 6, 2),
        ("harrogate", 5, 1),
        ("harrogate", 6, 2),
        ("harrogate", 10, 2),
        ("dead_last", 5, 1),
    ],
)
def test_two_decks_where_the_preset_calls_for_them(preset, n, decks):
    d = new_game(preset, n, seed=3).to_dict()
    cards = all_cards(d)
    assert sum(cards.values()) == 52 * decks
    assert set(cards.values()) == {decks}


def test_power_deck_has_two_jokers():
    d = new_game("power_deck", 4, seed=5).to_dict()
    cards = all_cards(d)
    assert cards["XR"] == 1 and cards["XB"] == 1
    assert sum(cards.values()) == 54


@pytest.mark.parametrize("preset", ["dead_last", "online_classic", "pub", "harrogate"])
def test_no_jokers_outside_power_deck(preset):
    d = new_game(preset, 3, seed=5).to_dict()
    assert not any(c[0] == "X" for c in all_cards(d))


def test_different_seeds_deal_differently():
    deals = {str(new_game("dead_last", 3, seed=s).to_dict()["players"]) for s in range(5)}
    assert len(deals) > 1


# =========================================================== 1. swap


@pytest.mark.parametrize("preset", PRESETS)
def test_swap_three_face_up_picks_per_seat_then_play(preset):
    n = 3
    g = new_game(preset, n, seed=21)
    d = g.to_dict()
    dealer = d["dealer"]
    before = {s: Counter(d["players"][s]["hand"] + d["players"][s]["face_up"]) for s in range(n)}
    for i in range(n):
        seat = (dealer + 1 + i) % n
        picked = []
        for k in range(3):
            d = g.to_dict()
            assert d["phase"] == "swap"
            assert g.current_player == seat
            h = d["players"][seat]["hand"]
            assert len(h) == 6 - k
            assert legal(g) == {Action.face_up(r) for r in set(ranks(h))}
            r = max(set(ranks(h)), key="23456789TJQKAX".index)
            picked.append(r)
            g.step(Action.face_up(r))
        p = g.to_dict()["players"][seat]
        assert ranks(p["face_up"]) == sorted(picked)
        assert len(p["hand"]) == 3
        assert Counter(p["hand"] + p["face_up"]) == before[seat]
        assert len(p["face_down"]) == 3
    assert g.to_dict()["phase"] == "play"
    assert all(a.kind != "face_up" for a in g.legal_actions())


def test_swap_action_illegal_for_rank_not_in_hand():
    g = new_game("dead_last", 2, seed=1)
    d = g.to_dict()
    h = ranks(d["players"][g.current_player]["hand"])
    missing = next(r for r in "23456789TJQKA" if r not in h)
    with pytest.raises(IllegalActionError):
        g.step(Action.face_up(missing))
    assert g.to_dict() == d


# =========================================================== 1. must play / pickup


def test_must_play_when_a_play_is_legal():
    g = position("dead_last", [{"hand": "4 K"}, other()], pile="9")
    assert legal(g) == {P("K", 1)}
    with pytest.raises(IllegalActionError):
        g.step(PICKUP)


def test_several_cards_of_one_rank_may_be_played():
    g = position("dead_last", [{"hand": "K K 4"}, other()], pile="9")
    assert legal(g) == {P("K", 1), P("K", 2)}
    play(g, "K", 2)
    d = g.to_dict()
    assert ranks(d["pile"]) == ranks("9 K K")
    assert ranks(d["players"][0]["hand"]) == ["4"]


def test_no_legal_play_means_pickup_and_turn_ends_without_draw():
    g = position(
        "dead_last",
        [{"hand": "4 5"}, other(), other("5 9")],
        pile="8 9",
        draw_pile="6 7 Q",
    )
    assert legal(g) == {PICKUP}
    g.step(PICKUP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 5 8 9")
    assert d["pile"] == []
    assert len(d["draw_pile"]) == 3  # a pickup never triggers a draw
    assert g.current_player == 1
    known = d["players"][0]["known"]
    assert ranks(known) == ranks("8 9")


@pytest.mark.parametrize("preset", ["dead_last", "online_classic", "pub", "harrogate"])
def test_no_voluntary_pickup_outside_power_deck(preset):
    g = position(preset, [{"hand": "4 K"}, other()], pile="9")
    assert PICKUP not in legal(g)


def test_voluntary_pickup_power_deck():
    g = position("power_deck", [{"hand": "4 K"}, other()], pile="9")
    assert legal(g) == {P("K", 1), PICKUP}
    g.step(PICKUP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 9 K")
    assert g.current_player == 1


def test_voluntary_pickup_power_deck_from_face_up_zone():
    g = position("power_deck", [{"face_up": "K", "face_down": "4"}, other()], pile="9")
    assert legal(g) == {P("K", 1), PICKUP}


@pytest.mark.parametrize("preset", PRESETS)
def test_pickup_never_on_empty_pile(preset):
    g = position(preset, [{"hand": "4 9"}, other()])
    assert PICKUP not in legal(g)
    assert play_ranks(g) == {"4", "9"}
    before = g.to_dict()
    with pytest.raises(IllegalActionError):
        g.step(PICKUP)
    assert g.to_dict() == before


# =========================================================== 1. draw back


def test_draw_back_to_three_in_draw_pile_order():
    g = position(
        "dead_last",
        [{"hand": "K 4 5"}, other()],
        pile="9",
        draw_pile=["6C", "7C", "8C"],
    )
    play(g, "K")
    d = g.to_dict()
    assert "6C" in d["players"][0]["hand"]
    assert ranks(d["players"][0]["hand"]) == ranks("4 5 6")
    assert d["draw_pile"] == ["7C", "8C"]


def test_draw_back_after_playing_two():
    g = position("dead_last", [{"hand": "K K 4"}, other()], pile="9", draw_pile="6 7 Q")
    play(g, "K", 2)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 6 7")
    assert len(d["draw_pile"]) == 1


def test_no_draw_when_holding_three_or_more():
    g = position("dead_last", [{"hand": "K 4 5 6 7"}, other()], pile="9", draw_pile="8 Q")
    play(g, "K")
    d = g.to_dict()
    assert len(d["players"][0]["hand"]) == 4
    assert len(d["draw_pile"]) == 2


def test_draw_back_stops_when_draw_pile_runs_out():
    g = position(
        "dead_last",
        [{"hand": "K", "face_up": "5", "face_down": "5"}, other()],
        pile="9",
        draw_pile="Q",
    )
    play(g, "K")
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ["Q"]
    assert d["draw_pile"] == []


def test_draw_back_after_a_burn_then_act_again():
    g = position("dead_last", [{"hand": "T 4 5"}, other()], pile="9", draw_pile="6 7")
    play(g, "T")
    d = g.to_dict()
    assert d["pile"] == []
    assert ranks(d["players"][0]["hand"]) == ranks("4 5 6")
    assert len(d["draw_pile"]) == 1
    assert g.current_player == 0


# =========================================================== 1. zones


def test_face_up_zone_when_hand_empty_several_of_one_rank():
    g = position("dead_last", [{"face_up": "K K 5", "face_down": "4 4 4"}, other()], pile="9")
    assert legal(g) == {P("K", 1), P("K", 2)}
    play(g, "K", 2)
    p0 = g.to_dict()["players"][0]
    assert ranks(p0["face_up"]) == ["5"]
    assert p0["hand"] == []
    assert len(p0["face_down"]) == 3


def test_face_up_cards_not_playable_while_hand_has_cards():
    g = position("dead_last", [{"hand": "4", "face_up": "K", "face_down": "5"}, other()], pile="9")
    assert legal(g) == {PICKUP}


def test_face_down_not_flipped_while_face_up_cards_remain():
    g = position("dead_last", [{"face_up": "4", "face_down": "K"}, other()], pile="9")
    assert legal(g) == {PICKUP}


def test_after_pickup_on_face_up_the_hand_comes_first():
    # seat 0 on face-up 5 picks up the 9; seat 1 plays a 4; seat 0 must play
    # its hand 9, not its face-up 5 (5 would be legal on the 4).
    g = position(
        "dead_last",
        [{"face_up": "5", "face_down": "6 6 6"}, other("4 J")],
        pile="9",
    )
    assert legal(g) == {PICKUP}
    g.step(PICKUP)
    p0 = g.to_dict()["players"][0]
    assert ranks(p0["hand"]) == ["9"] and ranks(p0["face_up"]) == ["5"]
    play(g, "4")
    assert g.current_player == 0
    assert legal(g) == {P("9", 1)}


def test_after_blind_pickup_the_hand_comes_first():
    g = position(
        "dead_last",
        [{"face_down": ["5C", "JC", "6C"]}, other("4 4")],
        pile="9 K",
    )
    g.step(FLIP)  # 5 on K: illegal, picked up
    play(g, "4")
    assert g.current_player == 0
    assert legal(g) == {P("5", 1), P("9", 1), P("K", 1)}


# =========================================================== 1. blind cards


def test_blind_flip_is_the_only_action_without_voluntary_pickup():
    g = position("dead_last", [{"face_down": "K 5"}, other()], pile="9")
    assert legal(g) == {FLIP}


def test_blind_flip_empty_pile_only_flip():
    g = position("power_deck", [{"face_down": "K 5"}, other()])
    assert legal(g) == {FLIP}


def test_blind_flip_legal_card_is_played():
    g = position("dead_last", [{"face_down": ["KC", "5C"]}, other()], pile="9")
    g.step(FLIP)
    d = g.to_dict()
    assert d["pile"][-1] == "KC"
    assert d["players"][0]["face_down"] == ["5C"]
    assert d["players"][0]["hand"] == []
    assert g.current_player == 1


def test_blind_flip_illegal_card_goes_to_hand_with_pile():
    g = position("dead_last", [{"face_down": ["4C", "KC"]}, other()], pile="9 J")
    g.step(FLIP)
    d = g.to_dict()
    p0 = d["players"][0]
    assert "4C" in p0["hand"] and ranks(p0["hand"]) == ranks("4 9 J")
    assert p0["face_down"] == ["KC"]
    assert sorted(p0["known"]) == sorted(p0["hand"])
    assert d["pile"] == []
    assert g.current_player == 1


@pytest.mark.parametrize(
    "pile,nxt",
    [
        ("6", 2),  # legal 8: skip happens
        ("9", 1),  # illegal 8: picked up, no skip
    ],
)
def test_blind_flip_effect_only_when_legal(pile, nxt):
    g = position(
        "dead_last",
        [{"face_down": ["8C", "KC"]}, other(), other("5 9")],
        pile=pile,
    )
    g.step(FLIP)
    assert g.current_player == nxt


def test_blind_flip_illegal_ace_does_not_nominate():
    g = position("power_deck", [{"face_down": ["AC", "KC"]}, other(), other("5 9")], pile="7")
    g.step(FLIP)
    d = g.to_dict()
    assert d["phase"] == "play"
    assert g.current_player == 1
    assert ranks(d["players"][0]["hand"]) == ranks("7 A")


def test_blind_flip_legal_ace_nominates():
    g = position("power_deck", [{"face_down": ["AC", "KC"]}, other(), other("5 9")], pile="6")
    g.step(FLIP)
    assert g.to_dict()["phase"] == "nominate"
    assert g.current_player == 0


def test_power_deck_may_pick_up_instead_of_flipping():
    g = position("power_deck", [{"face_down": ["KC", "5C"]}, other()], pile="9")
    assert legal(g) == {FLIP, PICKUP}
    g.step(PICKUP)
    p0 = g.to_dict()["players"][0]
    assert ranks(p0["hand"]) == ["9"]
    assert p0["face_down"] == ["KC", "5C"]


def test_last_blind_card_legal_makes_player_safe():
    g = position("dead_last", [{"face_down": ["KC"]}, other(), other("5 9")], pile="9")
    g.step(FLIP)
    d = g.to_dict()
    assert d["finish_order"] == [0]
    assert g.current_player == 1


# =========================================================== 1. burn


@pytest.mark.parametrize("preset", ["dead_last", "online_classic", "pub", "harrogate"])
def test_ten_burns_on_anything(preset):
    g = position(preset, [{"hand": "T 4"}, other("5 9")], pile="A K", burned="2")
    play(g, "T")
    d = g.to_dict()
    assert d["pile"] == []
    assert ranks(d["burned"]) == ranks("2 A K T")
    assert g.current_player == 0
    assert play_ranks(g) == {"4"}


def test_power_deck_ten_burns_when_legal():
    g = position("power_deck", [{"hand": "T 4"}, other("5 9")], pile="9")
    play(g, "T")
    assert g.to_dict()["pile"] == []
    assert g.current_player == 0


def test_run_of_four_built_over_plays_by_different_players():
    g = position(
        "dead_last",
        [{"hand": "K 4"}, other("K 9"), other("5 9")],
        pile="5 K K",
    )
    play(g, "K")
    assert len(g.to_dict()["pile"]) == 4
    assert g.current_player == 1
    play(g, "K")
    d = g.to_dict()
    assert d["pile"] == []
    assert ranks(d["burned"]) == ranks("5 K K K K")
    assert g.current_player == 1


def test_run_of_four_in_one_play():
    g = position("dead_last", [{"hand": "J J J J 4"}, other("5 9", "Q")], pile="5")
    play(g, "J", 4)
    assert g.to_dict()["pile"] == []
    assert g.current_player == 0


def test_four_invisible_threes_burn():
    g = position("dead_last", [{"hand": "3 4"}, other("5 9")], pile="5 3 3 3")
    play(g, "3")
    assert g.to_dict()["pile"] == []
    assert g.current_player == 0


@pytest.mark.parametrize(
    "preset,pile,rank",
    [
        ("dead_last", "K K 3 K", "K"),
        ("harrogate", "K K 8 K", "K"),
        ("power_deck", "K K 5 K", "K"),
    ],
)
def test_invisible_card_breaks_a_run(preset, pile, rank):
    g = position(preset, [{"hand": rank + " 4"}, other("6 9")], pile=pile)
    play(g, rank)
    assert len(g.to_dict()["pile"]) == 5
    assert g.current_player == 1


@pytest.mark.parametrize(
    "preset,pile,rank,n",
    [
        ("dead_last", "5 8 8 8", "8", 3),  # skip cancelled
        ("pub", "5 8 8 8", "8", 3),  # skip cancelled
        ("power_deck", "5 8 8 8", "8", 3),  # skip cancelled
        ("power_deck", "5 Q Q Q", "Q", 4),  # reverse cancelled
        ("power_deck", "5 A A A", "A", 3),  # nomination cancelled
        ("power_deck", "5 7 7 7", "7", 3),  # cap cancelled
        ("dead_last", "5 7 7 7", "7", 3),  # cap cancelled
        ("harrogate", "5 9 9 9", "9", 3),  # cap cancelled
    ],
)
def test_burn_cancels_other_effects(preset, pile, rank, n):
    players = [{"hand": rank + " K"}] + [other("4 6") for _ in range(n - 1)]
    g = position(preset, players, pile=pile)
    play(g, rank)
    d = g.to_dict()
    assert d["pile"] == []
    assert d["phase"] == "play"
    assert d["direction"] == 1
    assert g.current_player == 0
    assert legal(g) == {P("K", 1)}  # any rank on the empty pile, no cap


def test_safe_burner_passes_turn_without_skip():
    # dead_last 3 players: seat 0's last card is the fourth 8: burn, safe,
    # seat 1 acts (the 8's skip does not apply because it burned)
    g = position("dead_last", [{"hand": "8"}, other(), other("5 9")], pile="5 8 8 8")
    play(g, "8")
    d = g.to_dict()
    assert d["finish_order"] == [0]
    assert d["pile"] == []
    assert g.current_player == 1


@pytest.mark.parametrize(
    "preset,pile,last,burned",
    [
        ("dead_last", "KC", "TC", ["KC", "TC"]),  # a burn card
        ("dead_last", "KC KD KH", "KS", ["KC", "KD", "KH", "KS"]),  # four of a kind
        ("power_deck", "6C", "TC", ["6C", "TC"]),
        ("harrogate", "4C 9D", "TD", ["4C", "9D", "TD"]),
    ],
)
def test_burn_that_ends_the_game_still_burns(preset, pile, last, burned):
    # Two players: seat 0 burns with its last card, is safe, and the game ends (worked case 6).
    g = position(preset, [{"hand": last}, other("5 9")], pile=pile)
    g.step(Action.play(last[0]))
    d = g.to_dict()
    assert g.is_over and d["finish_order"] == [0, 1]
    assert d["pile"] == []
    assert sorted(d["burned"]) == sorted(burned)


# =========================================================== 1. safe & game end


def test_safe_player_last_skip_still_skips():
    g = position("dead_last", [{"hand": "8"}, other(), other("5 9")], pile="5")
    play(g, "8")
    assert g.to_dict()["finish_order"] == [0]
    assert g.current_player == 2


def test_safe_player_last_two_skips_four_players():
    g = position(
        "dead_last",
        [{"hand": "8 8"}, other(), other("5 9"), other("6 Q", "K")],
        pile="5",
    )
    play(g, "8", 2)
    assert g.to_dict()["finish_order"] == [0]
    assert g.current_player == 3


def test_safe_player_last_reverse_still_reverses():
    g = position(
        "power_deck",
        [other(), {"hand": "Q"}, other("5 9"), other("6 J", "K")],
        pile="5",
        current=1,
    )
    play(g, "Q")
    d = g.to_dict()
    assert d["finish_order"] == [1]
    assert d["direction"] == -1
    assert g.current_player == 0


def test_safe_player_last_nomination_still_names():
    g = position("power_deck", [{"hand": "A"}, other(), other("5 9")], pile="5")
    play(g, "A")
    d = g.to_dict()
    assert d["finish_order"] == [0]
    assert d["phase"] == "nominate"
    assert g.current_player == 0
    assert legal(g) == {Action.nominate(1), Action.nominate(2)}
    g.step(Action.nominate(2))
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 2


def test_game_ends_when_one_player_holds_cards():
    g = position("dead_last", [{"hand": "K"}, other()], pile="5")
    play(g, "K")
    d = g.to_dict()
    assert g.is_over
    assert not g.truncated
    assert g.current_player is None
    assert d["phase"] == "over"
    assert g.legal_actions() == []
    assert g.finish_order == [0, 1]
    with pytest.raises(IllegalActionError):
        g.step(PICKUP)


def test_finish_order_is_order_of_becoming_safe_loser_last():
    g = position(
        "dead_last",
        [{"hand": "K"}, {}, other("5 9")],
        pile="5",
        finish_order=[1],
    )
    play(g, "K")
    assert g.is_over
    assert g.finish_order == [1, 0, 2]


def test_game_continues_while_two_hold_cards():
    g = position("dead_last", [{"hand": "K"}, other(), other("5 9")], pile="5")
    play(g, "K")
    assert not g.is_over
    assert g.finish_order == [0]
    assert g.current_player == 1


def test_safe_players_leave_rotation():
    g = position(
        "dead_last",
        [{"hand": "K 4"}, {}, other("A 9")],
        pile="5",
        finish_order=[1],
    )
    play(g, "K")
    assert g.current_player == 2


# =========================================================== 2. legality table


LEGALITY = [
    # anytime
    ("dead_last", "A", "2", True),
    ("dead_last", "A", "3", True),
    ("dead_last", "A", "T", True),
    ("dead_last", "A", "K", False),
    ("power_deck", "A", "2", True),
    ("power_deck", "A", "5", True),
    ("power_deck", "A", "X", True),
    ("power_deck", "A", "T", False),
    ("harrogate", "A", "8", True),
    ("harrogate", "A", "3", False),
    # anytime never on a Joker
    ("power_deck", "XR", "2", False),
    ("power_deck", "XR", "5", False),
    ("power_deck", "XR", "A", False),
    ("power_deck", "XR", "X", True),
    # joker on an empty pile / on a cap
    ("power_deck", "", "X", True),
    ("power_deck", "7", "X", True),
    # reset, also below invisible cards
    ("dead_last", "K 2", "4", True),
    ("dead_last", "K 2 3", "4", True),
    ("power_deck", "K 2", "3", True),
    ("power_deck", "K 2 5", "3", True),
    ("harrogate", "K 2 8", "4", True),
    # invisible
    ("dead_last", "9 3", "8", False),
    ("dead_last", "9 3", "9", True),
    ("power_deck", "9 5", "8", False),
    ("power_deck", "9 5", "9", True),
    ("harrogate", "9 8 8", "4", True),
    # all-invisible pile counts as empty
    ("dead_last", "3 3", "4", True),
    ("power_deck", "5 5", "3", True),
    ("harrogate", "8 8", "3", True),
    ("pub", "3", "4", True),
    # cap, also below invisible
    ("dead_last", "7", "7", True),
    ("dead_last", "7", "8", False),
    ("dead_last", "7 3", "K", False),
    ("dead_last", "7 3", "6", True),
    ("power_deck", "7", "T", False),
    ("power_deck", "7", "6", True),
    ("power_deck", "7", "2", True),
    ("power_deck", "7 5", "K", False),
    ("power_deck", "7 5", "6", True),
    ("pub", "7 3", "9", False),
    # a cap must itself be legal
    ("dead_last", "K", "7", False),
    ("harrogate", "J", "9", False),
    # plain order
    ("dead_last", "9", "8", False),
    ("dead_last", "9", "9", True),
    ("dead_last", "9", "A", True),
    ("online_classic", "9", "8", False),
    ("power_deck", "4", "3", False),
    ("power_deck", "3", "4", True),
    # skip cards follow the rank rule
    ("dead_last", "9", "8", False),
    ("power_deck", "9", "8", False),
    ("power_deck", "8", "8", True),
    # power_deck Q/A need rank
    ("power_deck", "K", "Q", False),
    ("power_deck", "K", "A", True),
]


@pytest.mark.parametrize("preset,pile,rank,ok", LEGALITY)
def test_legality(preset, pile, rank, ok):
    g = position(preset, [{"hand": rank, "face_down": "6"}, other("4 9")], pile=pile)
    assert (P(rank, 1) in legal(g)) is ok


# =========================================================== 2. skip arithmetic


SKIPS = [
    # preset, players, 8s played, next seat (seat 0 plays, keeps a K)
    ("dead_last", 2, 1, 0),
    ("dead_last", 2, 2, 1),
    ("dead_last", 2, 3, 0),
    ("dead_last", 3, 1, 2),
    ("dead_last", 3, 2, 0),
    ("dead_last", 3, 3, 1),
    ("dead_last", 4, 1, 2),
    ("dead_last", 4, 2, 3),
    ("dead_last", 4, 3, 0),
    ("dead_last", 5, 3, 4),
    ("pub", 4, 1, 2),
    ("pub", 2, 1, 0),
    ("power_deck", 4, 1, 2),
    ("power_deck", 2, 2, 1),
    ("online_classic", 4, 2, 1),  # plain 8
    ("harrogate", 4, 2, 1),  # invisible 8
]


@pytest.mark.parametrize("preset,n,count,nxt", SKIPS)
def test_skip_arithmetic(preset, n, count, nxt):
    players = [{"hand": "8 " * count + "K"}] + [other("4 6") for _ in range(n - 1)]
    g = position(preset, players, pile="5")
    play(g, "8", count)
    pass_windows(g)  # power_deck asks the others whether they dump an 8
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == nxt


def test_skip_counts_active_players_only():
    g = position(
        "dead_last",
        [{"hand": "8 K"}, {}, other("4 6"), other("5 9", "Q")],
        pile="5",
        finish_order=[1],
    )
    play(g, "8")
    assert g.current_player == 3


def test_skip_follows_direction():
    g = position(
        "power_deck",
        [{"hand": "8 K"}] + [other("4 6") for _ in range(3)],
        pile="5",
        direction=-1,
    )
    play(g, "8")
    pass_windows(g)
    assert g.current_player == 2


# =========================================================== 2. reverse


@pytest.mark.parametrize("count,direction,nxt", [(1, -1, 3), (2, 1, 1), (3, -1, 3)])
def test_reverse_odd_even(count, direction, nxt):
    players = [{"hand": "Q " * count + "4"}] + [other("6 9") for _ in range(3)]
    g = position("power_deck", players, pile="5")
    play(g, "Q", count)
    pass_windows(g)  # three Qs: the others are asked whether they snatch the fourth
    assert g.to_dict()["direction"] == direction
    assert g.current_player == nxt


def test_reverse_play_continues_in_new_direction():
    players = [{"hand": "Q 4"}, other("6 9"), other("6 9"), other("K J")]
    g = position("power_deck", players, pile="5")
    play(g, "Q")
    assert g.current_player == 3
    play(g, "K")
    assert g.current_player == 2


def test_reverse_back_to_clockwise():
    players = [{"hand": "Q 4"}] + [other("6 9") for _ in range(3)]
    g = position("power_deck", players, pile="5", direction=-1)
    play(g, "Q")
    assert g.to_dict()["direction"] == 1
    assert g.current_player == 1


def test_reverse_no_effect_with_two_players():
    g = position("power_deck", [{"hand": "Q 4"}, other("6 9")], pile="5")
    play(g, "Q")
    assert g.to_dict()["direction"] == 1
    assert g.current_player == 1


def test_reverse_no_effect_with_two_active_of_three():
    g = position(
        "power_deck",
        [{"hand": "Q 4"}, other("6 9"), {}],
        pile="5",
        finish_order=[2],
    )
    play(g, "Q")
    assert g.to_dict()["direction"] == 1
    assert g.current_player == 1


def test_reverse_by_player_going_out_with_two_active_does_not_reverse():
    # 3 seats, seat 2 safe; seat 0's last card is a Q: 2 active before it goes
    # out, no reverse; the game ends (only seat 1 holds cards).
    g = position(
        "power_deck",
        [{"hand": "Q"}, other("6 9"), {}],
        pile="5",
        finish_order=[2],
    )
    play(g, "Q")
    assert g.is_over
    assert g.finish_order == [2, 0, 1]


# =========================================================== 2. nominate


def test_nominate_self():
    g = position("power_deck", [{"hand": "A 4"}, other("6 9"), other("6 9")], pile="5")
    play(g, "A")
    assert legal(g) == {Action.nominate(s) for s in range(3)}
    g.step(Action.nominate(0))
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 0
    assert legal(g) == {PICKUP}  # 4 on an A: illegal


def test_nominee_play_continues_from_it():
    players = [{"hand": "A 4"}, other("6 9"), other("5 9"), other("6 K")]
    g = position("power_deck", players, pile="6")
    play(g, "A")
    g.step(Action.nominate(2))
    assert g.current_player == 2
    play(g, "5")
    assert g.current_player == 3


def test_nominate_only_active_seats():
    players = [{"hand": "A 4"}, other("6 9"), other("5 9"), {}]
    g = position("power_deck", players, pile="6", finish_order=[3])
    play(g, "A")
    assert legal(g) == {Action.nominate(s) for s in range(3)}
    with pytest.raises(IllegalActionError):
        g.step(Action.nominate(3))


def test_several_aces_one_nomination():
    players = [{"hand": "A A 4"}, other("6 9"), other("5 9")]
    g = position("power_deck", players, pile="6")
    play(g, "A", 2)
    assert g.to_dict()["phase"] == "nominate"
    g.step(Action.nominate(1))
    pass_windows(g)
    d = g.to_dict()
    assert d["phase"] == "play"
    assert g.current_player == 1


def test_nominate_phase_has_only_nominations():
    g = position("power_deck", [{"hand": "A 4"}, other("6 9")], pile="6")
    play(g, "A")
    assert all(a.kind == "nominate" for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        play(g, "4")


# =========================================================== 2. joker


def test_jokers_on_pickup_go_to_burned():
    g = position("power_deck", [{"hand": "K"}, other("6 9")], pile="9 XR XB", burned="2")
    assert legal(g) == {PICKUP}
    g.step(PICKUP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("9 K")
    assert sorted(d["burned"])[-2:] == ["XB", "XR"]
    assert ranks(d["burned"]) == ranks("2 X X")
    assert "XR" not in d["players"][0]["known"]


def test_jokers_leave_game_on_blind_pickup():
    # blind 4 is illegal on a Joker: the 4 and the 9 go to the hand, the
    # Joker to the burned pile.
    g = position("power_deck", [{"face_down": ["4C", "KC"]}, other("6 9")], pile="9 XR")
    assert legal(g) == {FLIP, PICKUP}
    g.step(FLIP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 9")
    assert "XR" in d["burned"]


# =========================================================== 2. extra turn / reset


def test_power_deck_two_gives_extra_turn_and_resets():
    players = [{"hand": "2 4"}, other("6 9"), other("6 9")]
    g = position("power_deck", players, pile="K")
    play(g, "2")
    assert g.current_player == 0
    assert legal(g) == {P("4", 1), PICKUP}


def test_dead_last_two_resets_without_extra_turn():
    players = [{"hand": "2 4"}, other("4 9"), other("6 9")]
    g = position("dead_last", players, pile="K")
    play(g, "2")
    assert g.current_player == 1
    assert play_ranks(g) == {"4", "9"}


def test_extra_turn_forfeited_when_safe():
    players = [{"hand": "2"}, other("6 9"), other("6 9")]
    g = position("power_deck", players, pile="K")
    play(g, "2")
    assert g.finish_order == [0]
    assert g.current_player == 1


# =========================================================== 3. snatch (pub)


def pub_kings(seat2, seat1=None, seat3=None, draw_pile="", **fields):
    """pub, 4 players: seat 0 holds K K K 4 and plays K K K on a 5; seat 1 is next."""
    players = [
        {"hand": "K K K 4"},
        seat1 or other("6 7", "9"),
        seat2,
        seat3 or other("Q Q", "A"),
    ]
    g = position("pub", players, pile="5", draw_pile=draw_pile, **fields)
    play(g, "K", 3)
    return g


def window(g):
    return g.to_dict()["window"]


def test_snatch_window_asks_holder_and_records_window():
    # The fourth K is unseen: seats 2 and 3 (not seat 1, whose turn comes next) might hold it.
    g = pub_kings({"hand": "K 9", "face_down": "J"})
    d = g.to_dict()
    assert d["phase"] == "interrupt"
    assert g.current_player == 2
    assert d["window"] == {"played_by": 0, "next": 1, "queue": [3]}
    assert legal(g) == {PASS, P("K", 1)}


def test_snatch_pass_returns_turn_to_next_player():
    g = pub_kings({"hand": "K 9", "face_down": "J"})
    pile = g.to_dict()["pile"]
    g.step(PASS)
    assert g.current_player == 3 and legal(g) == {PASS}  # asked, holds no K: may only pass
    g.step(PASS)
    d = g.to_dict()
    assert d["phase"] == "play"
    assert d["window"] is None
    assert d["pile"] == pile
    assert g.current_player == 1


def test_snatch_burns_and_snatcher_has_go_and_draws_back():
    g = pub_kings(
        {"hand": "K 9", "face_down": "J"},
        draw_pile=["6C", "7C", "JD", "JH"],
    )
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 6 7")
    play(g, "K")
    d = g.to_dict()
    assert d["pile"] == []
    assert g.current_player == 2
    assert d["phase"] == "play"
    assert ranks(d["players"][2]["hand"]) == ranks("9 J J")
    assert d["draw_pile"] == []


def test_snatch_next_player_not_asked():
    g = pub_kings(other("4 9"), seat1=other("K 6"))
    assert window(g)["next"] == 1
    while g.phase == "interrupt":
        assert g.current_player != 1
        assert legal(g) == {PASS}
        g.step(PASS)
    assert g.current_player == 1
    # seat 1 may still lay its K in turn, which burns
    play(g, "K")
    assert g.to_dict()["pile"] == []
    assert g.current_player == 1


@pytest.mark.parametrize("seat2", [other("4 9"), other("K 9")])
def test_who_is_asked_does_not_depend_on_hidden_cards(seat2):
    g = pub_kings(seat2)
    assert g.phase == "interrupt" and g.current_player == 2
    assert window(g) == {"played_by": 0, "next": 1, "queue": [3]}
    assert (P("K", 1) in legal(g)) == ("K" in seat2["hand"])


def test_no_window_when_every_copy_is_seen():
    # The fourth K is burned: nobody can snatch, so nobody is asked.
    g = pub_kings(other("4 9"), burned="K")
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 1


def test_seat_whose_hand_is_all_known_is_asked_only_when_it_holds_the_play():
    g = pub_kings({"hand": "4 9", "known": "4 9", "face_down": "J"}, seat3={"hand": "Q Q", "known": "Q Q"})
    assert g.to_dict()["phase"] == "play" and g.current_player == 1
    g = pub_kings({"hand": "K 9", "known": "K 9", "face_down": "J"}, seat3={"hand": "Q Q", "known": "Q Q"})
    assert g.phase == "interrupt" and g.current_player == 2
    assert window(g)["queue"] == []
    assert legal(g) == {PASS, P("K", 1)}


def test_snatch_needs_enough_cards_to_reach_four():
    # seat 0 lays K K: a snatch needs two Ks. Seat 2 (two unknown cards) might hold them and is
    # asked, but with one K it may only pass; with two it may snatch. Seat 3 holds a single
    # unknown card, which cannot be two Ks: it is never asked.
    def kings(seat2_hand):
        players = [{"hand": "K K 4"}, other("6 7"), {"hand": seat2_hand, "face_down": "J"}, other("J", "Q")]
        g = position("pub", players, pile="5")
        play(g, "K", 2)
        return g

    g = kings("K 9")
    assert g.phase == "interrupt" and g.current_player == 2
    assert window(g)["queue"] == []
    assert legal(g) == {PASS}
    g.step(PASS)
    assert g.to_dict()["phase"] == "play" and g.current_player == 1

    g = kings("K K 9")
    assert g.phase == "interrupt" and g.current_player == 2
    assert legal(g) == {PASS, P("K", 2)}


def test_snatch_from_face_up_when_hand_empty():
    g = pub_kings({"face_up": "K 9", "face_down": "J"})
    assert g.to_dict()["phase"] == "interrupt"
    assert g.current_player == 2
    play(g, "K")
    d = g.to_dict()
    assert ranks(d["players"][2]["face_up"]) == ["9"]
    assert g.current_player == 2


def test_no_snatch_from_face_up_while_hand_has_cards():
    # The fourth K lies face up: everyone sees no hand can hold it, so nobody is asked.
    g = pub_kings({"hand": "4", "face_up": "K", "face_down": "J"})
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 1


def test_no_snatch_from_face_down():
    g = pub_kings({"face_down": "K J"})
    assert window(g)["played_by"] == 0
    while g.phase == "interrupt":
        assert g.current_player != 2  # face-down cards never play out of turn
        g.step(PASS)
    assert g.current_player == 1


def test_snatcher_going_out_is_safe_and_turn_passes_after_it():
    g = pub_kings({"hand": "K"})
    assert g.current_player == 2
    play(g, "K")
    d = g.to_dict()
    assert d["finish_order"] == [2]
    assert d["phase"] == "play"
    assert g.current_player == 3


def test_no_window_without_snatch_rules():
    # dead_last has no out-of-turn plays
    players = [{"hand": "K K K 4"}, other("6 7"), other("K 9"), other("J J", "Q")]
    g = position("dead_last", players, pile="5")
    play(g, "K", 3)
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 1


def _two_deck_pub_rules():
    import yaml

    path = os.path.join(os.path.dirname(__file__), "..", "..", "configs", "rules", "pub.yaml")
    with open(path) as f:
        rules = yaml.safe_load(f)
    rules.pop("extends", None)
    rules["name"] = "pub_two_decks"
    rules["decks"] = 2
    rules.pop("decks_from_players", None)
    return rules


def test_snatch_window_order_starts_after_player_skips_next():
    # two-deck pub (custom rules): seat 2 lays a K on K K (run of 3); seats
    # 0, 1 and 3 each hold a K. Seat 3 is next, so not asked; 0 then 1 are.
    rules = _two_deck_pub_rules()
    players = [other("K 6"), other("K 7"), {"hand": "K 4"}, other("K 9")]
    g = position(rules, players, pile="5 K K", current=2, decks=2)
    play(g, "K")
    d = g.to_dict()
    assert d["phase"] == "interrupt"
    assert g.current_player == 0
    assert d["window"] == {"played_by": 2, "next": 3, "queue": [1]}
    g.step(PASS)
    assert g.current_player == 1
    assert g.to_dict()["window"]["queue"] == []
    g.step(PASS)
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 3


# =========================================================== 3. eight dump (power_deck)


def dump_game(s1="8 4", s2="6 9", s3="8 6", s0="8 4", count=1):
    """power_deck, 4 players: seat 0 lays `count` 8s on a 5 (skip -> seat 2 next
    for one 8)."""
    players = [{"hand": s0}, other(s1), other(s2), other(s3, "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8", count)
    return g


def test_dump_window_order_and_next_player_asked_too():
    g = dump_game(s1="8 4", s2="8 9", s3="8 6")
    d = g.to_dict()
    assert d["phase"] == "interrupt"
    assert g.current_player == 1
    assert d["window"] == {"played_by": 0, "next": 2, "queue": [2, 3]}
    assert legal(g) == {PASS, P("8", 1)}
    g.step(PASS)
    assert g.current_player == 2
    g.step(PASS)
    assert g.current_player == 3
    g.step(PASS)
    d = g.to_dict()
    assert d["phase"] == "play"
    assert g.current_player == 2


def test_dump_asks_every_seat_that_might_hold_an_eight():
    g = dump_game(s1="4 6", s2="6 9", s3="8 6")
    assert g.to_dict()["window"] == {"played_by": 0, "next": 2, "queue": [2, 3]}
    assert g.current_player == 1 and legal(g) == {PASS}
    g.step(PASS)
    assert g.current_player == 2 and legal(g) == {PASS}
    g.step(PASS)
    assert g.current_player == 3 and legal(g) == {PASS, P("8", 1)}


def test_dump_next_player_may_dump_and_keeps_its_turn():
    g = dump_game(s1="4 6", s2="8 9", s3="7 6")
    pass_windows(g)
    assert g.to_dict()["phase"] == "interrupt"
    assert g.current_player == 2
    play(g, "8")
    pass_windows(g)  # the dump opens a new window
    d = g.to_dict()
    assert ranks(d["pile"]) == ranks("5 8 8")
    assert d["phase"] == "play"
    assert g.current_player == 2  # its turn is not used up


def test_dump_does_not_change_next_and_opens_new_window():
    g = dump_game(s1="8 4", s2="6 9", s3="8 6")
    assert g.current_player == 1
    play(g, "8")  # seat 1 dumps
    d = g.to_dict()
    assert ranks(d["pile"]) == ranks("5 8 8")
    # a new window, opened by seat 1's dump; next is still seat 2
    assert d["phase"] == "interrupt"
    assert d["window"]["played_by"] == 1
    assert d["window"]["next"] == 2
    pass_windows(g)
    assert g.current_player == 3 and P("8", 1) in legal(g)
    g.step(PASS)
    pass_windows(g)
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 2  # a dump never skips


def test_dumper_not_asked_again_in_its_own_window():
    g = dump_game(s1="8 8 4", s2="6 9", s3="7 6", count=1)
    assert g.current_player == 1
    play(g, "8")  # pile 5 8 8; seat 1 still holds an 8 but just played
    while g.phase == "interrupt":
        assert g.current_player != 1
        g.step(PASS)
    assert g.current_player == 2


def test_dump_completing_four_burns_and_gives_the_go():
    g = dump_game(s0="8 8 4", s1="8 8 4", s2="6 9", s3="7 6", count=2)
    # two 8s: next is seat 3; seat 1 asked
    assert g.current_player == 1
    assert g.to_dict()["window"]["next"] == 3
    assert legal(g) == {PASS, P("8", 1), P("8", 2)}
    play(g, "8", 2)
    d = g.to_dict()
    assert d["pile"] == []
    assert d["phase"] == "play"
    assert g.current_player == 1


def test_dump_from_face_up_only_when_hand_empty():
    players = [{"hand": "8 4"}, {"face_up": "8 K", "face_down": "J"}, other("6 9"), other("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    assert g.current_player == 1 and g.to_dict()["phase"] == "interrupt"
    assert legal(g) == {PASS, P("8", 1)}

    # With a hand it plays from the hand: asked (its one unknown card might be an 8), it may only pass.
    players = [{"hand": "8 4"}, {"hand": "4", "face_up": "8 K", "face_down": "J"}, other("6 9"), other("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    assert g.current_player == 1 and legal(g) == {PASS}
    pass_windows(g)
    assert g.to_dict()["phase"] == "play" and g.current_player == 2


def test_no_dump_from_face_down():
    players = [{"hand": "8 4"}, {"face_down": "8 J"}, other("6 9"), other("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    assert 1 not in [g.current_player, *window(g)["queue"]]
    pass_windows(g)
    assert g.to_dict()["phase"] == "play" and g.current_player == 2


def test_no_dump_when_top_is_not_an_eight():
    players = [{"hand": "K 4"}, other("8 4"), other("6 9"), other("8 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "K")
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 1


def test_no_dump_in_pub():
    players = [{"hand": "8 4"}, other("6 9"), other("8 6"), other("7 6", "J")]
    g = position("pub", players, pile="5")
    play(g, "8")
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 2


def test_window_after_nomination_skips_nominee():
    # seat 0 lays A A A and nominates seat 2; seat 1 holds the fourth A and is
    # asked (snatch) after the nomination.
    players = [{"hand": "A A A 4"}, other("A 6"), other("6 9"), other("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "A", 3)
    assert g.to_dict()["phase"] == "nominate"
    g.step(Action.nominate(2))
    d = g.to_dict()
    assert d["phase"] == "interrupt"
    assert g.current_player == 1
    assert d["window"]["next"] == 2
    play(g, "A")
    d = g.to_dict()
    assert d["pile"] == []
    assert g.current_player == 1


def test_window_after_nomination_nominee_holding_snatch_not_asked():
    players = [{"hand": "A A A 4"}, other("7 6"), other("A 9"), other("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "A", 3)
    g.step(Action.nominate(2))
    while g.phase == "interrupt":
        assert g.current_player != 2  # the nominee's turn is the one that comes next
        g.step(PASS)
    assert g.current_player == 2


# =========================================================== first player


def _opened(preset, n, seed):
    g = new_game(preset, n, seed)
    finish_swap(g, np.random.default_rng(seed + 1000))
    return g


@pytest.mark.parametrize("preset", PRESETS)
def test_swap_starts_left_of_dealer(preset):
    for seed in range(5):
        g = new_game(preset, 4, seed)
        d = g.to_dict()
        assert g.current_player == (d["dealer"] + 1) % 4


@pytest.mark.parametrize("preset", ["dead_last", "pub"])
def test_first_player_random(preset):
    rel, firsts, dealers = set(), set(), set()
    for seed in range(40):
        g = _opened(preset, 4, seed)
        d = g.to_dict()
        assert d["forced_rank"] is None
        rel.add((g.current_player - d["dealer"]) % 4)
        firsts.add(g.current_player)
        dealers.add(d["dealer"])
    assert len(rel) > 1
    assert len(firsts) > 1
    assert len(dealers) > 1


def test_first_player_online_classic_lowest_ignoring_twos_and_threes():
    for seed in range(40):
        n = 2 + seed % 9
        g = _opened("online_classic", n, seed)
        d = g.to_dict()
        seat, _ = expected_lowest_opener(d, "456789TJQKA")
        assert g.current_player == seat, f"seed {seed} n {n}"
        assert d["forced_rank"] is None
        # no restriction on the opening play
        assert play_ranks(g) == set(ranks(d["players"][seat]["hand"]))


def test_first_player_harrogate_left_of_dealer():
    for seed in range(20):
        n = 2 + seed % 9
        g = _opened("harrogate", n, seed)
        d = g.to_dict()
        assert g.current_player == (d["dealer"] + 1) % n
        assert d["forced_rank"] is None


def test_first_player_power_deck_lowest_card_must_open_with_it():
    for seed in range(40):
        n = 2 + seed % 4
        g = _opened("power_deck", n, seed)
        d = g.to_dict()
        seat, rank = expected_lowest_opener(d, "3456789TJQKA")
        assert g.current_player == seat, f"seed {seed}"
        assert d["forced_rank"] == rank
        if rank is not None:
            k = sum(1 for c in d["players"][seat]["hand"] if c[0] == rank)
            assert legal(g) == {P(rank, c) for c in range(1, k + 1)}


# =========================================================== harrogate face-up


def test_harrogate_face_up_taken_even_when_it_must_pick_up():
    g = position(
        "harrogate",
        [{"face_up": "4 5", "face_down": "6 6 6"}, other("7 9")],
        pile="J",
    )
    assert legal(g) == {PICKUP}
    g.step(PICKUP)
    p0 = g.to_dict()["players"][0]
    assert p0["face_up"] == []
    assert ranks(p0["hand"]) == ranks("4 5 J")
    assert sorted(p0["known"]) == sorted(p0["hand"])


def test_harrogate_face_up_taken_plays_several_from_hand():
    g = position(
        "harrogate",
        [{"face_up": "K K 5", "face_down": "6 6 6"}, other("7 9")],
        pile="J",
    )
    assert legal(g) == {P("K", 1), P("K", 2)}
    play(g, "K")
    p0 = g.to_dict()["players"][0]
    assert p0["face_up"] == []
    assert ranks(p0["hand"]) == ranks("5 K")
    assert sorted(p0["known"]) == sorted(p0["hand"])


def test_non_harrogate_face_up_stays_on_table():
    g = position(
        "dead_last",
        [{"face_up": "K K 5", "face_down": "6 6 6"}, other("7 9")],
        pile="J",
    )
    play(g, "K")
    p0 = g.to_dict()["players"][0]
    assert ranks(p0["face_up"]) == ranks("5 K")
    assert p0["hand"] == []


# =========================================================== decision cap


def test_decision_cap_truncates():
    g = position(
        "dead_last",
        [other("4 5 6 7", "J J"), other("9 J Q K", "A A")],
        max_decisions=3,
    )
    play(g, "4")
    play(g, "9")
    assert not g.is_over
    assert g.to_dict()["decisions"] == 2
    g.step(PICKUP)
    assert g.is_over
    assert g.truncated
    assert g.current_player is None
    assert g.legal_actions() == []
    assert g.to_dict()["truncated"] is True


def test_decisions_count_each_step():
    g = position("dead_last", [other("4 5"), other("9 J")], decisions=7)
    play(g, "4")
    assert g.to_dict()["decisions"] == 8


# =========================================================== more edge cases


def test_joker_alone_on_pile_pickup_takes_nothing_into_hand():
    g = position("power_deck", [{"hand": "K"}, other("6 9"), other("6 9")], pile="XR")
    assert legal(g) == {PICKUP}
    g.step(PICKUP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ["K"]
    assert d["burned"] == ["XR"] and d["pile"] == []
    assert g.current_player == 1


def test_pub_window_when_skips_give_the_player_its_own_turn():
    # pub, 4 players: seat 0 lays 8 8 8 (3 skips: the turn comes back to it);
    # seat 1 holds the fourth 8 and is asked.
    players = [{"hand": "8 8 8 K"}, other("8 6"), other("6 9"), other("7 9", "Q")]
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
    players = [{"hand": "3 4"}, other("6 7"), other("K 9"), other("Q Q", "A")]
    g = position("pub", players, pile="K K K")
    play(g, "3")
    assert g.to_dict()["phase"] == "play"  # a snatch would need three more 3s: no seat holds three unknown cards
    assert g.current_player == 1


def test_snatch_can_end_the_game():
    # pub, 3 players: seat 0 lays its last cards K K K (safe); seat 2 snatches
    # with its last card (safe); only seat 1 holds cards: it is the loser.
    players = [{"hand": "K K K"}, other("6 7"), {"hand": "K"}]
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
    players = [{"hand": "8 8 4"}, {"hand": "8 8"}, other("6 9"), other("7 6", "J")]
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
    g = position("power_deck", [{"hand": "8 4 K"}, other("8 6")], pile="5")
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
        [{"hand": "T", "face_up": "4 K", "face_down": "5 5 5"}, other("7 9")],
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
        [{"hand": "4 5"}, other("6 9"), other("6 Q")],
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
    players = [{"hand": "8 4"}, other("6 9"), {"hand": "8"}, other("7 6", "J")]
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
