"""The text table shows what a seat may see, and nothing else."""

from __future__ import annotations

import re

from shithead_env import Game


def position(**fields):
    base = {
        "rules": "dead_last",
        "players": [
            {"hand": ["4H", "KS"], "face_up": ["9C"], "face_down": ["2D"]},
            {"hand": ["5C", "QD", "JH"], "face_up": ["AS"], "face_down": ["6S", "7S"], "known": ["QD"]},
        ],
        "pile": ["9S", "3D"],
        "draw_pile": ["8H"],
        "burned": ["TC"],
        "current": 0,
    }
    base.update(fields)
    return Game.from_dict(base)


def test_observer_sees_own_hand_and_known_cards_only() -> None:
    text = position().render(seat=0)
    assert "4H KS" in text
    assert "3 cards (known: QD)" in text
    assert "5C" not in text and "JH" not in text
    assert "2D" not in text and "6S" not in text  # face-down cards stay hidden
    assert "1 hidden" in text and "2 hidden" in text


def test_table_shows_pile_constraint_counts_and_turn() -> None:
    text = position().render(seat=0)
    assert "pile (2): 9S 3D | needs 9 or higher" in text
    assert "draw pile: 1 | burned: 1" in text
    assert "to act: P0 (turn, from hand)" in text
    capped = position(pile=["7C", "3D"]).render(seat=0)
    assert "needs 7 or lower" in capped


def test_omniscient_view_shows_everything() -> None:
    text = position().render()
    assert "5C" in text and "6S" in text and "2D" in text


def test_why_illegal_names_the_reason() -> None:
    from shithead_env import Action, Knowledge
    from shithead_env.render import why_illegal

    k = Knowledge.from_game(position(), 0)  # P0 holds 4H KS on 9S 3D (needs 9 or higher), no voluntary pickup
    assert why_illegal(k, Action.play("4")) == "a 4 cannot be played: the pile needs 9 or higher"
    assert why_illegal(k, Action.play("K", 2)) == "you hold only 1 K in your hand"
    assert why_illegal(k, Action.play("A")) == "you hold no A in your hand"
    assert why_illegal(k, Action.pickup()) == "you must play when you can (this table has no voluntary pickup)"
    assert why_illegal(k, Action.flip()).startswith("flip only once your hand and face-up cards are gone")
    assert why_illegal(k, Action.pass_()).startswith("pass is only for out-of-turn windows")
    assert why_illegal(k, Action.play("K")) == "play 1xK is legal"


def test_legend_is_one_line_per_preset() -> None:
    from shithead_env import PRESETS, load_rules
    from shithead_env.render import legend

    lines = {name: legend(load_rules(name)) for name in PRESETS}
    assert all("\n" not in line for line in lines.values())
    assert "10 on anything, burns the pile" in lines["dead_last"] and "8 skips" in lines["dead_last"]
    assert "8 on anything, invisible" in lines["harrogate"] and "9 next 9 or lower" in lines["harrogate"]
    assert "A names who plays next" in lines["power_deck"] and "(snatch)" in lines["pub"]


def test_counts_agree_with_their_number_and_zones_and_seats_read_as_words() -> None:
    one = position(players=[
        {"hand": ["4H", "KS"], "face_up": ["9C"], "face_down": ["2D"]},
        {"hand": ["5C"], "face_up": [], "face_down": ["6S"]},
    ])
    assert "hand: 1 card |" in one.render(seat=0)
    from_face_up = position(players=[
        {"hand": [], "face_up": ["9C", "KC"], "face_down": ["2D"]},
        {"hand": ["5C"], "face_up": [], "face_down": ["6S"]},
    ], pile=["3D"])
    assert "to act: P0 (turn, from face-up cards)" in from_face_up.render(seat=0)
    over = position(players=[{"hand": ["4H"]}, {}], pile=[], draw_pile=[], burned=[], phase="over", current=None,
                    finish_order=[1, 0])
    assert over.render(seat=1).endswith("finish order: you > P0")
    assert over.render(seat=0).endswith("finish order: P1 > you")


def test_a_ten_reads_10_and_a_joker_joker_as_in_the_browser() -> None:
    """Text shows ranks as players read them; the JSON and the card names keep T and X."""
    from shithead_env.cards import card_word
    from shithead_env.events import describe

    ten = position(players=[
        {"hand": ["TH", "KS"], "face_up": ["TC"], "face_down": ["2D"]},
        {"hand": ["5C", "QD"], "face_up": [], "face_down": ["6S"], "known": ["QD"]},
    ], pile=["9S", "TD", "TS"], burned=[])
    text = ten.render(seat=0)
    assert "hand: 10H KS | face-up: 10C" in text
    assert "pile (3): 9S 10D 10S | needs 10 or higher | run 2x10" in text
    assert re.search(r"\bT[CDHS]?\b", text) is None  # no rank letter T anywhere
    assert [card_word(c) for c in ("TS", "XR", "XB", "KH")] == ["10S", "Joker", "Joker", "KH"]
    assert describe({"kind": "play", "seat": 1, "cards": ["TS", "TH"], "zone": "face_up", "out_of_turn": None}) \
        == "P1 plays 10S 10H from face-up"
    assert describe({"kind": "pickup", "seat": 0, "cards": ["4C"], "count": 1, "jokers": ["XR"]}, you=0) \
        == "you pick up the pile: 1 card (Joker leaves the game)"


def test_why_illegal_out_of_turn_says_how_many_the_window_allows() -> None:
    from shithead_env import Action, Knowledge
    from shithead_env.render import why_illegal
    from tests.helpers import bystander
    from tests.helpers import position as pub_position

    # pub, 4 players: P0 lays K K K on a 5; P2 holds the fourth K and is asked first, then P3, who holds none.
    players = [{"hand": "K K K 4"}, bystander("6 7", "9"), {"hand": "K 9", "face_down": "J"}, bystander("Q Q", "A")]
    game = pub_position("pub", players, pile="5")
    game.step(Action.play("K", 3))
    k = Knowledge.from_game(game, 2)
    assert why_illegal(k, Action.play("K", 2)) == "out of turn you may lay 1 K, not 2"
    assert why_illegal(k, Action.play("9")) == "out of turn you may only pass or lay Ks"
    game.step(Action.pass_())
    assert why_illegal(Knowledge.from_game(game, 3), Action.play("K")) == "you cannot lay Ks out of turn now"
