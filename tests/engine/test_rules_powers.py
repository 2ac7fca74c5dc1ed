"""RULES.md section 2, rule by rule: the legality table and every power (skip, reverse, nominate,
Joker, extra turn, reset).

Positions: pile bottom -> top; seat 0 acts unless `current` says otherwise.
Rank tokens get distinct suits (see tests.helpers.make_state).
"""


import pytest

from shithead_env import Action, IllegalActionError
from tests.helpers import (
    FLIP,
    PICKUP,
    P,
    bystander,
    legal,
    pass_windows,
    play,
    play_ranks,
    position,
    ranks,
)

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
    g = position(preset, [{"hand": rank, "face_down": "6"}, bystander("4 9")], pile=pile)
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
    players = [{"hand": "8 " * count + "K"}] + [bystander("4 6") for _ in range(n - 1)]
    g = position(preset, players, pile="5")
    play(g, "8", count)
    pass_windows(g)  # power_deck asks the others whether they dump an 8
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == nxt


def test_skip_counts_active_players_only():
    g = position(
        "dead_last",
        [{"hand": "8 K"}, {}, bystander("4 6"), bystander("5 9", "Q")],
        pile="5",
        finish_order=[1],
    )
    play(g, "8")
    assert g.current_player == 3


def test_skip_follows_direction():
    g = position(
        "power_deck",
        [{"hand": "8 K"}] + [bystander("4 6") for _ in range(3)],
        pile="5",
        direction=-1,
    )
    play(g, "8")
    pass_windows(g)
    assert g.current_player == 2


# =========================================================== 2. reverse


@pytest.mark.parametrize("count,direction,nxt", [(1, -1, 3), (2, 1, 1), (3, -1, 3)])
def test_reverse_odd_even(count, direction, nxt):
    players = [{"hand": "Q " * count + "4"}] + [bystander("6 9") for _ in range(3)]
    g = position("power_deck", players, pile="5")
    play(g, "Q", count)
    pass_windows(g)  # three Qs: the others are asked whether they snatch the fourth
    assert g.to_dict()["direction"] == direction
    assert g.current_player == nxt


def test_reverse_play_continues_in_new_direction():
    players = [{"hand": "Q 4"}, bystander("6 9"), bystander("6 9"), bystander("K J")]
    g = position("power_deck", players, pile="5")
    play(g, "Q")
    assert g.current_player == 3
    play(g, "K")
    assert g.current_player == 2


def test_reverse_back_to_clockwise():
    players = [{"hand": "Q 4"}] + [bystander("6 9") for _ in range(3)]
    g = position("power_deck", players, pile="5", direction=-1)
    play(g, "Q")
    assert g.to_dict()["direction"] == 1
    assert g.current_player == 1


def test_reverse_no_effect_with_two_players():
    g = position("power_deck", [{"hand": "Q 4"}, bystander("6 9")], pile="5")
    play(g, "Q")
    assert g.to_dict()["direction"] == 1
    assert g.current_player == 1


def test_reverse_no_effect_with_two_active_of_three():
    g = position(
        "power_deck",
        [{"hand": "Q 4"}, bystander("6 9"), {}],
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
        [{"hand": "Q"}, bystander("6 9"), {}],
        pile="5",
        finish_order=[2],
    )
    play(g, "Q")
    assert g.is_over
    assert g.finish_order == [2, 0, 1]


# =========================================================== 2. nominate


def test_nominate_self():
    g = position("power_deck", [{"hand": "A 4"}, bystander("6 9"), bystander("6 9")], pile="5")
    play(g, "A")
    assert legal(g) == {Action.nominate(s) for s in range(3)}
    g.step(Action.nominate(0))
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 0
    assert legal(g) == {PICKUP}  # 4 on an A: illegal


def test_nominee_play_continues_from_it():
    players = [{"hand": "A 4"}, bystander("6 9"), bystander("5 9"), bystander("6 K")]
    g = position("power_deck", players, pile="6")
    play(g, "A")
    g.step(Action.nominate(2))
    assert g.current_player == 2
    play(g, "5")
    assert g.current_player == 3


def test_nominate_only_active_seats():
    players = [{"hand": "A 4"}, bystander("6 9"), bystander("5 9"), {}]
    g = position("power_deck", players, pile="6", finish_order=[3])
    play(g, "A")
    assert legal(g) == {Action.nominate(s) for s in range(3)}
    with pytest.raises(IllegalActionError):
        g.step(Action.nominate(3))


def test_several_aces_one_nomination():
    players = [{"hand": "A A 4"}, bystander("6 9"), bystander("5 9")]
    g = position("power_deck", players, pile="6")
    play(g, "A", 2)
    assert g.to_dict()["phase"] == "nominate"
    g.step(Action.nominate(1))
    pass_windows(g)
    d = g.to_dict()
    assert d["phase"] == "play"
    assert g.current_player == 1


def test_nominate_phase_has_only_nominations():
    g = position("power_deck", [{"hand": "A 4"}, bystander("6 9")], pile="6")
    play(g, "A")
    assert all(a.kind == "nominate" for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        play(g, "4")


# =========================================================== 2. joker


def test_jokers_on_pickup_go_to_burned():
    g = position("power_deck", [{"hand": "K"}, bystander("6 9")], pile="9 XR XB", burned="2")
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
    g = position("power_deck", [{"face_down": ["4C", "KC"]}, bystander("6 9")], pile="9 XR")
    assert legal(g) == {FLIP, PICKUP}
    g.step(FLIP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 9")
    assert "XR" in d["burned"]


# =========================================================== 2. extra turn / reset


def test_power_deck_two_gives_extra_turn_and_resets():
    players = [{"hand": "2 4"}, bystander("6 9"), bystander("6 9")]
    g = position("power_deck", players, pile="K")
    play(g, "2")
    assert g.current_player == 0
    assert legal(g) == {P("4", 1), PICKUP}


def test_dead_last_two_resets_without_extra_turn():
    players = [{"hand": "2 4"}, bystander("4 9"), bystander("6 9")]
    g = position("dead_last", players, pile="K")
    play(g, "2")
    assert g.current_player == 1
    assert play_ranks(g) == {"4", "9"}


def test_extra_turn_forfeited_when_safe():
    players = [{"hand": "2"}, bystander("6 9"), bystander("6 9")]
    g = position("power_deck", players, pile="K")
    play(g, "2")
    assert g.finish_order == [0]
    assert g.current_player == 1
