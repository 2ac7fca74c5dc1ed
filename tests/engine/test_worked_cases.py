"""RULES.md section 5: the worked cases from the source documents (must hold).

Positions are written bottom -> top for the pile. Seat 0 acts unless noted.
"""


import numpy as np
import pytest

from shithead_env import Action
from tests.helpers import expected_lowest_opener, finish_swap, legal, pass_windows, play, play_ranks, position, ranks


def can_play(preset, pile, rank):
    """Is `rank` legal for seat 0 on `pile` (seat 0 holds one card of it)?"""
    g = position(
        preset,
        [
            {"hand": rank, "face_down": "6"},
            {"hand": "5 6", "face_down": "J"},
        ],
        pile=pile,
    )
    return Action.play(rank, 1) in legal(g)


# --------------------------------------------------------------------- case 1
# dead_last: pile 9 3 3 3 (3 invisible): effective top is 9.
# Had the 3s been on a 2, any rank is legal.
CASE1 = [
    ("9 3 3 3", "4", False),
    ("9 3 3 3", "8", False),
    ("9 3 3 3", "9", True),
    ("9 3 3 3", "K", True),
] + [("2 3 3 3", r, True) for r in "23456789TJQKA"]


@pytest.mark.parametrize("pile,rank,ok", CASE1)
def test_case01_invisible_threes(pile, rank, ok):
    assert can_play("dead_last", pile, rank) is ok


# --------------------------------------------------------------------- case 2
# dead_last: pile top 7 (cap): 4 and 7 legal, K not, 10 yes. 7 not on a K.
CASE2 = [
    ("7", "4", True),
    ("7", "7", True),
    ("7", "K", False),
    ("7", "T", True),
    ("K", "7", False),
]


@pytest.mark.parametrize("pile,rank,ok", CASE2)
def test_case02_seven_caps(pile, rank, ok):
    assert can_play("dead_last", pile, rank) is ok


# --------------------------------------------------------------------- case 3
# dead_last, 3 players: seat 0 holds Q 5 6.
#   pile 4 Q Q Q + Q        -> burns, seat 0 acts again
#   pile 4 Q Q 3 Q + Q      -> Q Q 3 Q Q, no burn, seat 1 next
#   pile 4 Q Q 3 + Q Q      -> Q Q 3 Q Q, no burn
CASE3 = [
    ("4 Q Q Q", 1, True),
    ("4 Q Q 3 Q", 1, False),
    ("4 Q Q 3", 2, False),
]


@pytest.mark.parametrize("pile,count,burns", CASE3)
def test_case03_four_queens_burn(pile, count, burns):
    g = position(
        "dead_last",
        [
            {"hand": "Q " * count + "5 6"},
            {"hand": "9 9", "face_down": "J"},
            {"hand": "8 8", "face_down": "J"},
        ],
        pile=pile,
    )
    before = len(pile.split())
    play(g, "Q", count)
    d = g.to_dict()
    if burns:
        assert d["pile"] == []
        assert len(d["burned"]) == before + count
        assert g.current_player == 0
    else:
        assert len(d["pile"]) == before + count
        assert d["burned"] == []
        assert g.current_player == 1


# --------------------------------------------------------------------- case 4
# dead_last, two players: seat 0 holds 8 8 K on pile 5.
# one 8 -> seat 0 again; two 8s -> seat 1.
@pytest.mark.parametrize("count,nxt", [(1, 0), (2, 1)])
def test_case04_eights_two_players(count, nxt):
    g = position(
        "dead_last",
        [{"hand": "8 8 K"}, {"hand": "4 6", "face_down": "J"}],
        pile="5",
    )
    play(g, "8", count)
    assert g.current_player == nxt


# --------------------------------------------------------------------- case 5
# dead_last: seat 0 has only face-down cards 5 J 6 (5 is flipped first);
# pile 9 K. The 5 is illegal: pile + 5 go to the hand, J and 6 stay down.
def test_case05_blind_five_on_king():
    g = position(
        "dead_last",
        [
            {"face_down": ["5C", "JC", "6C"]},
            {"hand": "4 4", "face_down": "J"},
        ],
        pile="9 K",
    )
    assert legal(g) == {Action.flip()}
    g.step(Action.flip())
    d = g.to_dict()
    p0 = d["players"][0]
    assert ranks(p0["hand"]) == ranks("5 9 K")
    assert "5C" in p0["hand"]
    assert sorted(p0["face_down"]) == sorted(["JC", "6C"])
    assert d["pile"] == []
    assert g.current_player == 1
    # everyone saw the 5 and the pile
    assert sorted(p0["known"]) == sorted(p0["hand"])


# --------------------------------------------------------------------- case 6
# dead_last, 3 players: seat 0's last card is a 10 -> burns, safe,
# seat 1 acts on the empty pile.
def test_case06_last_card_ten_burns_and_passes():
    g = position(
        "dead_last",
        [
            {"hand": "T"},
            {"hand": "4 9", "face_down": "J"},
            {"hand": "5 6", "face_down": "J"},
        ],
        pile="K A",
    )
    play(g, "T")
    d = g.to_dict()
    assert d["finish_order"] == [0]
    assert d["pile"] == []
    assert len(d["burned"]) == 3
    assert g.current_player == 1
    assert not g.is_over
    assert {"4", "9"} <= play_ranks(g)


# --------------------------------------------------------------------- case 7
# online_classic: an 8 is plain, it does not skip (3 and 4 players, 1 or 2 8s).
@pytest.mark.parametrize("n,count", [(3, 1), (4, 1), (4, 2)])
def test_case07_online_classic_eight_plain(n, count):
    players = [{"hand": "8 8 K"}] + [{"hand": "4 6", "face_down": "J"} for _ in range(n - 1)]
    g = position("online_classic", players, pile="5")
    play(g, "8", count)
    assert g.current_player == 1
    # and the next player needs 8 or better: a 6 is not legal on it
    assert "6" not in play_ranks(g)


# --------------------------------------------------------------------- case 8
# harrogate: 8 invisible (anytime), 9 caps, 3 plain, 7 plain.
CASE8 = [
    # 8 on a J: J or higher, or 2, 8, 10
    ("J 8", "J", True),
    ("J 8", "Q", True),
    ("J 8", "2", True),
    ("J 8", "8", True),
    ("J 8", "T", True),
    ("J 8", "9", False),
    ("J 8", "4", False),
    # 8 on an empty pile: anything
    ("8", "4", True),
    ("8", "K", True),
    ("8", "3", True),
    # a 9 cannot go on a J
    ("J", "9", False),
    # after a 9: 9 or lower, or 2, 8, 10
    ("9", "K", False),
    ("9", "J", False),
    ("9", "9", True),
    ("9", "4", True),
    ("9", "2", True),
    ("9", "8", True),
    ("9", "T", True),
    # an 8 on a 9 keeps the cap (Decided)
    ("9 8", "K", False),
    ("9 8", "5", True),
    # 3 is plain
    ("J", "3", False),
    ("4", "3", False),
    ("3", "3", True),
    # 7 is plain (no cap)
    ("7", "K", True),
]


@pytest.mark.parametrize("pile,rank,ok", CASE8)
def test_case08_harrogate_powers(pile, rank, ok):
    assert can_play("harrogate", pile, rank) is ok


# --------------------------------------------------------------------- case 9
# harrogate, 2 players, draw pile empty.
#   seat 0: hand 4, face-up 5 9 K, face-down 6 6 6
#   seat 1: hand 7 7, face-down J
# seat 0 plays 4, seat 1 plays 7 7; seat 0 is to act with an empty hand:
# it takes 5 9 K into its hand (known to all) and plays K from the hand;
# 5 and 9 stay in the hand, nothing is left face up.
def test_case09_harrogate_takes_face_up_into_hand():
    g = position(
        "harrogate",
        [
            {"hand": "4", "face_up": "5 9 K", "face_down": "6 6 6"},
            {"hand": "7 7", "face_down": "J"},
        ],
    )
    play(g, "4")
    assert g.current_player == 1
    play(g, "7", 2)
    assert g.current_player == 0
    assert play_ranks(g) == {"9", "K"}
    play(g, "K")
    d = g.to_dict()
    p0 = d["players"][0]
    assert p0["face_up"] == []
    assert ranks(p0["hand"]) == ranks("5 9")
    assert sorted(p0["known"]) == sorted(p0["hand"])
    assert len(p0["face_down"]) == 3


# -------------------------------------------------------------------- case 10
# pub, 4 players: seat 0 lays K K K on a 5; seat 2 (two seats away) holds the
# fourth K and snatches: the pile burns and seat 2 has the go.
def test_case10_pub_snatch():
    g = position(
        "pub",
        [
            {"hand": "K K K 4"},
            {"hand": "6 7", "face_down": "J"},
            {"hand": "K 9", "face_down": "J"},
            {"hand": "J J", "face_down": "Q"},
        ],
        pile="5",
    )
    play(g, "K", 3)
    d = g.to_dict()
    assert d["phase"] == "interrupt"
    assert g.current_player == 2
    assert legal(g) == {Action.pass_(), Action.play("K", 1)}
    play(g, "K")
    d = g.to_dict()
    assert d["pile"] == []
    assert ranks(d["burned"]) == ranks("5 K K K K")
    assert d["phase"] == "play"
    assert g.current_player == 2
    assert ranks(d["players"][2]["hand"]) == ["9"]
    assert play_ranks(g) == {"9"}


# -------------------------------------------------------------------- case 11
# power_deck: 10 is not anytime.
def test_case11a_power_deck_ten_not_on_jack():
    g = position(
        "power_deck",
        [{"hand": "T"}, {"hand": "4 6", "face_down": "J"}],
        pile="J",
    )
    assert legal(g) == {Action.pickup()}


# power_deck, 3 players: seat 0 lays a Joker on a 9; seat 1 (K A 2 5) must
# pick up; the Joker goes to the burned pile, not into the hand.
def test_case11b_joker_forces_pickup_and_leaves_game():
    g = position(
        "power_deck",
        [
            {"hand": "XR 4 6"},
            {"hand": "K A 2 5", "face_down": "J"},
            {"hand": "6 7", "face_down": "J"},
        ],
        pile="9",
    )
    play(g, "X")
    assert g.current_player == 1
    assert legal(g) == {Action.pickup()}
    g.step(Action.pickup())
    d = g.to_dict()
    h1 = d["players"][1]["hand"]
    assert ranks(h1) == ranks("2 5 9 A K")
    assert "XR" not in h1
    assert "XR" in d["burned"]
    assert d["pile"] == []
    assert g.current_player == 2


# A player holding a Joker may answer a Joker with it.
def test_case11c_joker_on_joker():
    g = position(
        "power_deck",
        [{"hand": "XB K 2"}, {"hand": "4 6", "face_down": "J"}],
        pile="9 XR",
    )
    assert legal(g) == {Action.play("X", 1), Action.pickup()}


# Q Q played together do not reverse (4 players).
def test_case11d_two_queens_do_not_reverse():
    g = position(
        "power_deck",
        [{"hand": "Q Q 4"}] + [{"hand": "6 7", "face_down": "J"} for _ in range(3)],
        pile="5",
    )
    play(g, "Q", 2)
    pass_windows(g)  # the others are asked whether they snatch with two Qs
    assert g.to_dict()["direction"] == 1
    assert g.current_player == 1


# After an Ace the player nominates; the nominee must play 2, 5, A, Joker
# or pick up.
def test_case11e_ace_nominates_and_nominee_needs_ace_or_better():
    g = position(
        "power_deck",
        [
            {"hand": "A 4"},
            {"hand": "6 7", "face_down": "J"},
            {"hand": "2 5 A X K 4", "face_down": "J"},
            {"hand": "6 7", "face_down": "J"},
        ],
        pile="5",
    )
    play(g, "A")
    assert g.to_dict()["phase"] == "nominate"
    assert g.current_player == 0
    assert legal(g) == {Action.nominate(s) for s in range(4)}
    g.step(Action.nominate(2))
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 2
    assert legal(g) == {
        Action.play("2", 1),
        Action.play("5", 1),
        Action.play("A", 1),
        Action.play("X", 1),
        Action.pickup(),
    }


# -------------------------------------------------------------------- case 12
# power_deck: the opener is the holder of the lowest card (3, else 4, ...)
# after the swap and must open with that rank; ties go to the earliest seat
# from the dealer's left.
POWER_ORDER = "3456789TJQKA"


def test_case12_power_deck_opener_holds_three_and_must_play_threes():
    seen_three = 0
    for seed in range(40):
        n = 2 + seed % 4
        from shithead_env import Game, load_rules

        g = Game.new(load_rules("power_deck"), num_players=n, seed=seed)
        finish_swap(g, np.random.default_rng(seed))
        d = g.to_dict()
        assert d["phase"] == "play"
        seat, rank = expected_lowest_opener(d, POWER_ORDER)
        assert g.current_player == seat, f"seed {seed}"
        if rank is None:
            continue
        if rank == "3":
            seen_three += 1
        assert d["forced_rank"] == rank, f"seed {seed}"
        k = sum(1 for c in d["players"][seat]["hand"] if c[0] == rank)
        assert legal(g) == {Action.play(rank, c) for c in range(1, k + 1)}, f"seed {seed}"
        # the restriction is for the opening play only
        play(g, rank, 1)
        assert g.to_dict()["forced_rank"] is None
    assert seen_three > 0


def test_case12_forced_rank_from_state():
    # the opener holds 3 3 K (pile empty): only 3s may be laid, any number.
    g = position(
        "power_deck",
        [{"hand": "3 3 K"}, {"hand": "4 6", "face_down": "J"}],
        forced_rank="3",
    )
    assert legal(g) == {Action.play("3", 1), Action.play("3", 2)}
    with pytest.raises(ValueError):
        play(g, "K")
