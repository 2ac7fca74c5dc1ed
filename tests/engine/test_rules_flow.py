"""RULES.md section 1, rule by rule: the deal, swap, must play or pick up, drawing back, zones,
blind cards, burns, going safe and the end of the game.

Positions: pile bottom -> top; seat 0 acts unless `current` says otherwise.
Rank tokens get distinct suits (see tests.helpers.make_state).
"""

from collections import Counter

import pytest

from shithead_env import Action, IllegalActionError
from tests.helpers import (
    FLIP,
    PICKUP,
    PRESETS,
    P,
    all_cards,
    bystander,
    full_deck,
    legal,
    new_game,
    play,
    play_ranks,
    position,
    ranks,
)

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
    g = position("dead_last", [{"hand": "4 K"}, bystander()], pile="9")
    assert legal(g) == {P("K", 1)}
    with pytest.raises(IllegalActionError):
        g.step(PICKUP)


def test_several_cards_of_one_rank_may_be_played():
    g = position("dead_last", [{"hand": "K K 4"}, bystander()], pile="9")
    assert legal(g) == {P("K", 1), P("K", 2)}
    play(g, "K", 2)
    d = g.to_dict()
    assert ranks(d["pile"]) == ranks("9 K K")
    assert ranks(d["players"][0]["hand"]) == ["4"]


def test_no_legal_play_means_pickup_and_turn_ends_without_draw():
    g = position(
        "dead_last",
        [{"hand": "4 5"}, bystander(), bystander("5 9")],
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
    g = position(preset, [{"hand": "4 K"}, bystander()], pile="9")
    assert PICKUP not in legal(g)


def test_voluntary_pickup_power_deck():
    g = position("power_deck", [{"hand": "4 K"}, bystander()], pile="9")
    assert legal(g) == {P("K", 1), PICKUP}
    g.step(PICKUP)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 9 K")
    assert g.current_player == 1


def test_voluntary_pickup_power_deck_from_face_up_zone():
    g = position("power_deck", [{"face_up": "K", "face_down": "4"}, bystander()], pile="9")
    assert legal(g) == {P("K", 1), PICKUP}


@pytest.mark.parametrize("preset", PRESETS)
def test_pickup_never_on_empty_pile(preset):
    g = position(preset, [{"hand": "4 9"}, bystander()])
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
        [{"hand": "K 4 5"}, bystander()],
        pile="9",
        draw_pile=["6C", "7C", "8C"],
    )
    play(g, "K")
    d = g.to_dict()
    assert "6C" in d["players"][0]["hand"]
    assert ranks(d["players"][0]["hand"]) == ranks("4 5 6")
    assert d["draw_pile"] == ["7C", "8C"]


def test_draw_back_after_playing_two():
    g = position("dead_last", [{"hand": "K K 4"}, bystander()], pile="9", draw_pile="6 7 Q")
    play(g, "K", 2)
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ranks("4 6 7")
    assert len(d["draw_pile"]) == 1


def test_no_draw_when_holding_three_or_more():
    g = position("dead_last", [{"hand": "K 4 5 6 7"}, bystander()], pile="9", draw_pile="8 Q")
    play(g, "K")
    d = g.to_dict()
    assert len(d["players"][0]["hand"]) == 4
    assert len(d["draw_pile"]) == 2


def test_draw_back_stops_when_draw_pile_runs_out():
    g = position(
        "dead_last",
        [{"hand": "K", "face_up": "5", "face_down": "5"}, bystander()],
        pile="9",
        draw_pile="Q",
    )
    play(g, "K")
    d = g.to_dict()
    assert ranks(d["players"][0]["hand"]) == ["Q"]
    assert d["draw_pile"] == []


def test_draw_back_after_a_burn_then_act_again():
    g = position("dead_last", [{"hand": "T 4 5"}, bystander()], pile="9", draw_pile="6 7")
    play(g, "T")
    d = g.to_dict()
    assert d["pile"] == []
    assert ranks(d["players"][0]["hand"]) == ranks("4 5 6")
    assert len(d["draw_pile"]) == 1
    assert g.current_player == 0


# =========================================================== 1. zones


def test_face_up_zone_when_hand_empty_several_of_one_rank():
    g = position("dead_last", [{"face_up": "K K 5", "face_down": "4 4 4"}, bystander()], pile="9")
    assert legal(g) == {P("K", 1), P("K", 2)}
    play(g, "K", 2)
    p0 = g.to_dict()["players"][0]
    assert ranks(p0["face_up"]) == ["5"]
    assert p0["hand"] == []
    assert len(p0["face_down"]) == 3


def test_face_up_cards_not_playable_while_hand_has_cards():
    g = position("dead_last", [{"hand": "4", "face_up": "K", "face_down": "5"}, bystander()], pile="9")
    assert legal(g) == {PICKUP}


def test_face_down_not_flipped_while_face_up_cards_remain():
    g = position("dead_last", [{"face_up": "4", "face_down": "K"}, bystander()], pile="9")
    assert legal(g) == {PICKUP}


def test_after_pickup_on_face_up_the_hand_comes_first():
    # seat 0 on face-up 5 picks up the 9; seat 1 plays a 4; seat 0 must play
    # its hand 9, not its face-up 5 (5 would be legal on the 4).
    g = position(
        "dead_last",
        [{"face_up": "5", "face_down": "6 6 6"}, bystander("4 J")],
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
        [{"face_down": ["5C", "JC", "6C"]}, bystander("4 4")],
        pile="9 K",
    )
    g.step(FLIP)  # 5 on K: illegal, picked up
    play(g, "4")
    assert g.current_player == 0
    assert legal(g) == {P("5", 1), P("9", 1), P("K", 1)}


# =========================================================== 1. blind cards


def test_blind_flip_is_the_only_action_without_voluntary_pickup():
    g = position("dead_last", [{"face_down": "K 5"}, bystander()], pile="9")
    assert legal(g) == {FLIP}


def test_blind_flip_empty_pile_only_flip():
    g = position("power_deck", [{"face_down": "K 5"}, bystander()])
    assert legal(g) == {FLIP}


def test_blind_flip_legal_card_is_played():
    g = position("dead_last", [{"face_down": ["KC", "5C"]}, bystander()], pile="9")
    g.step(FLIP)
    d = g.to_dict()
    assert d["pile"][-1] == "KC"
    assert d["players"][0]["face_down"] == ["5C"]
    assert d["players"][0]["hand"] == []
    assert g.current_player == 1


def test_blind_flip_illegal_card_goes_to_hand_with_pile():
    g = position("dead_last", [{"face_down": ["4C", "KC"]}, bystander()], pile="9 J")
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
        [{"face_down": ["8C", "KC"]}, bystander(), bystander("5 9")],
        pile=pile,
    )
    g.step(FLIP)
    assert g.current_player == nxt


def test_blind_flip_illegal_ace_does_not_nominate():
    g = position("power_deck", [{"face_down": ["AC", "KC"]}, bystander(), bystander("5 9")], pile="7")
    g.step(FLIP)
    d = g.to_dict()
    assert d["phase"] == "play"
    assert g.current_player == 1
    assert ranks(d["players"][0]["hand"]) == ranks("7 A")


def test_blind_flip_legal_ace_nominates():
    g = position("power_deck", [{"face_down": ["AC", "KC"]}, bystander(), bystander("5 9")], pile="6")
    g.step(FLIP)
    assert g.to_dict()["phase"] == "nominate"
    assert g.current_player == 0


def test_power_deck_may_pick_up_instead_of_flipping():
    g = position("power_deck", [{"face_down": ["KC", "5C"]}, bystander()], pile="9")
    assert legal(g) == {FLIP, PICKUP}
    g.step(PICKUP)
    p0 = g.to_dict()["players"][0]
    assert ranks(p0["hand"]) == ["9"]
    assert p0["face_down"] == ["KC", "5C"]


def test_last_blind_card_legal_makes_player_safe():
    g = position("dead_last", [{"face_down": ["KC"]}, bystander(), bystander("5 9")], pile="9")
    g.step(FLIP)
    d = g.to_dict()
    assert d["finish_order"] == [0]
    assert g.current_player == 1


# =========================================================== 1. burn


@pytest.mark.parametrize("preset", ["dead_last", "online_classic", "pub", "harrogate"])
def test_ten_burns_on_anything(preset):
    g = position(preset, [{"hand": "T 4"}, bystander("5 9")], pile="A K", burned="2")
    play(g, "T")
    d = g.to_dict()
    assert d["pile"] == []
    assert ranks(d["burned"]) == ranks("2 A K T")
    assert g.current_player == 0
    assert play_ranks(g) == {"4"}


def test_power_deck_ten_burns_when_legal():
    g = position("power_deck", [{"hand": "T 4"}, bystander("5 9")], pile="9")
    play(g, "T")
    assert g.to_dict()["pile"] == []
    assert g.current_player == 0


def test_run_of_four_built_over_plays_by_different_players():
    g = position(
        "dead_last",
        [{"hand": "K 4"}, bystander("K 9"), bystander("5 9")],
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
    g = position("dead_last", [{"hand": "J J J J 4"}, bystander("5 9", "Q")], pile="5")
    play(g, "J", 4)
    assert g.to_dict()["pile"] == []
    assert g.current_player == 0


def test_four_invisible_threes_burn():
    g = position("dead_last", [{"hand": "3 4"}, bystander("5 9")], pile="5 3 3 3")
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
    g = position(preset, [{"hand": rank + " 4"}, bystander("6 9")], pile=pile)
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
    players = [{"hand": rank + " K"}] + [bystander("4 6") for _ in range(n - 1)]
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
    g = position("dead_last", [{"hand": "8"}, bystander(), bystander("5 9")], pile="5 8 8 8")
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
    g = position(preset, [{"hand": last}, bystander("5 9")], pile=pile)
    g.step(Action.play(last[0]))
    d = g.to_dict()
    assert g.is_over and d["finish_order"] == [0, 1]
    assert d["pile"] == []
    assert sorted(d["burned"]) == sorted(burned)


# =========================================================== 1. safe & game end


def test_safe_player_last_skip_still_skips():
    g = position("dead_last", [{"hand": "8"}, bystander(), bystander("5 9")], pile="5")
    play(g, "8")
    assert g.to_dict()["finish_order"] == [0]
    assert g.current_player == 2


def test_safe_player_last_two_skips_four_players():
    g = position(
        "dead_last",
        [{"hand": "8 8"}, bystander(), bystander("5 9"), bystander("6 Q", "K")],
        pile="5",
    )
    play(g, "8", 2)
    assert g.to_dict()["finish_order"] == [0]
    assert g.current_player == 3


def test_safe_player_last_reverse_still_reverses():
    g = position(
        "power_deck",
        [bystander(), {"hand": "Q"}, bystander("5 9"), bystander("6 J", "K")],
        pile="5",
        current=1,
    )
    play(g, "Q")
    d = g.to_dict()
    assert d["finish_order"] == [1]
    assert d["direction"] == -1
    assert g.current_player == 0


def test_safe_player_last_nomination_still_names():
    g = position("power_deck", [{"hand": "A"}, bystander(), bystander("5 9")], pile="5")
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
    g = position("dead_last", [{"hand": "K"}, bystander()], pile="5")
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
        [{"hand": "K"}, {}, bystander("5 9")],
        pile="5",
        finish_order=[1],
    )
    play(g, "K")
    assert g.is_over
    assert g.finish_order == [1, 0, 2]


def test_game_continues_while_two_hold_cards():
    g = position("dead_last", [{"hand": "K"}, bystander(), bystander("5 9")], pile="5")
    play(g, "K")
    assert not g.is_over
    assert g.finish_order == [0]
    assert g.current_player == 1


def test_safe_players_leave_rotation():
    g = position(
        "dead_last",
        [{"hand": "K 4"}, {}, bystander("A 9")],
        pile="5",
        finish_order=[1],
    )
    play(g, "K")
    assert g.current_player == 2
