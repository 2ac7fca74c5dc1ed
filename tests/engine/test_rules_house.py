"""RULES.md section 3 and the preset table of section 4: snatch (pub), eight dump (power_deck), the
first player, harrogate's face-up cards and the decision cap.

Positions: pile bottom -> top; seat 0 acts unless `current` says otherwise.
Rank tokens get distinct suits (see tests.helpers.make_state).
"""

import os

import numpy as np
import pytest

from shithead_env import Action
from tests.helpers import (
    PASS,
    PICKUP,
    PRESETS,
    P,
    bystander,
    expected_lowest_opener,
    finish_swap,
    legal,
    new_game,
    pass_windows,
    play,
    play_ranks,
    position,
    ranks,
)

# =========================================================== 3. snatch (pub)


def pub_kings(seat2, seat1=None, seat3=None, draw_pile="", **fields):
    """pub, 4 players: seat 0 holds K K K 4 and plays K K K on a 5; seat 1 is next."""
    players = [
        {"hand": "K K K 4"},
        seat1 or bystander("6 7", "9"),
        seat2,
        seat3 or bystander("Q Q", "A"),
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
    g = pub_kings(bystander("4 9"), seat1=bystander("K 6"))
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


@pytest.mark.parametrize("seat2", [bystander("4 9"), bystander("K 9")])
def test_who_is_asked_does_not_depend_on_hidden_cards(seat2):
    g = pub_kings(seat2)
    assert g.phase == "interrupt" and g.current_player == 2
    assert window(g) == {"played_by": 0, "next": 1, "queue": [3]}
    assert (P("K", 1) in legal(g)) == ("K" in seat2["hand"])


def test_no_window_when_every_copy_is_seen():
    # The fourth K is burned: nobody can snatch, so nobody is asked.
    g = pub_kings(bystander("4 9"), burned="K")
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
        players = [{"hand": "K K 4"}, bystander("6 7"), {"hand": seat2_hand, "face_down": "J"}, bystander("J", "Q")]
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
    players = [{"hand": "K K K 4"}, bystander("6 7"), bystander("K 9"), bystander("J J", "Q")]
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
    players = [bystander("K 6"), bystander("K 7"), {"hand": "K 4"}, bystander("K 9")]
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
    players = [{"hand": s0}, bystander(s1), bystander(s2), bystander(s3, "J")]
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
    players = [{"hand": "8 4"}, {"face_up": "8 K", "face_down": "J"}, bystander("6 9"), bystander("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    assert g.current_player == 1 and g.to_dict()["phase"] == "interrupt"
    assert legal(g) == {PASS, P("8", 1)}

    # With a hand it plays from the hand: asked (its one unknown card might be an 8), it may only pass.
    players = [
        {"hand": "8 4"}, {"hand": "4", "face_up": "8 K", "face_down": "J"}, bystander("6 9"), bystander("7 6", "J")
    ]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    assert g.current_player == 1 and legal(g) == {PASS}
    pass_windows(g)
    assert g.to_dict()["phase"] == "play" and g.current_player == 2


def test_no_dump_from_face_down():
    players = [{"hand": "8 4"}, {"face_down": "8 J"}, bystander("6 9"), bystander("7 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "8")
    assert 1 not in [g.current_player, *window(g)["queue"]]
    pass_windows(g)
    assert g.to_dict()["phase"] == "play" and g.current_player == 2


def test_no_dump_when_top_is_not_an_eight():
    players = [{"hand": "K 4"}, bystander("8 4"), bystander("6 9"), bystander("8 6", "J")]
    g = position("power_deck", players, pile="5")
    play(g, "K")
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 1


def test_no_dump_in_pub():
    players = [{"hand": "8 4"}, bystander("6 9"), bystander("8 6"), bystander("7 6", "J")]
    g = position("pub", players, pile="5")
    play(g, "8")
    assert g.to_dict()["phase"] == "play"
    assert g.current_player == 2


def test_window_after_nomination_skips_nominee():
    # seat 0 lays A A A and nominates seat 2; seat 1 holds the fourth A and is
    # asked (snatch) after the nomination.
    players = [{"hand": "A A A 4"}, bystander("A 6"), bystander("6 9"), bystander("7 6", "J")]
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
    players = [{"hand": "A A A 4"}, bystander("7 6"), bystander("A 9"), bystander("7 6", "J")]
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
        [{"face_up": "4 5", "face_down": "6 6 6"}, bystander("7 9")],
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
        [{"face_up": "K K 5", "face_down": "6 6 6"}, bystander("7 9")],
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
        [{"face_up": "K K 5", "face_down": "6 6 6"}, bystander("7 9")],
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
        [bystander("4 5 6 7", "J J"), bystander("9 J Q K", "A A")],
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
    g = position("dead_last", [bystander("4 5"), bystander("9 J")], decisions=7)
    play(g, "4")
    assert g.to_dict()["decisions"] == 8
