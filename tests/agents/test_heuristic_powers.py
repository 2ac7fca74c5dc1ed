"""The heuristic, the benchmark every shipped model is measured against, plays each preset's powers sensibly.

One position per power: it snatches in ``pub``, dumps its 8s in
``power_deck``, nominates the opponent closest to going out, keeps a Joker while a
plain card will do, plays from face-up cards taken into the hand in ``harrogate``,
and spends every copy of a magic rank once the draw pile is empty.
"""

from __future__ import annotations

from typing import Any

from agents import make_bot
from shithead_env import Action, Game

HEURISTIC = make_bot("heuristic")


def position(rules: str, pile: list[str], *players: dict[str, Any], draw: list[str] | None = None) -> Game:
    """Seat 0 to play: ``players`` give each seat's hand (and face-up) cards, one face-down card each by default."""
    downs = iter(["4S", "4D", "4H", "3D", "3H"])
    seats = [{"face_down": [next(downs)], **p} for p in players]
    return Game.from_dict({"rules": rules, "current": 0, "pile": pile, "draw_pile": draw or [], "players": seats})


def decide(game: Game) -> str:
    return str(HEURISTIC.act_game(game, game.current, None))


def test_snatches_the_fourth_of_a_rank_out_of_turn() -> None:
    game = position("pub", ["KC", "KD"], {"hand": ["KH", "5C", "6C"]}, {"hand": ["7C", "8C", "9C"]},
                    {"hand": ["KS", "4C", "5H"]})
    game.step(Action.play("K", 1))
    assert (game.phase, game.current) == ("interrupt", 2)
    assert decide(game) == "play 1xK"  # the pile burns and seat 2 has the go


def test_dumps_every_eight_on_an_eight() -> None:
    game = position("power_deck", ["4C"], {"hand": ["8H", "5C", "6C"]}, {"hand": ["7C", "9C", "JC"]},
                    {"hand": ["8S", "8D", "KH"]})
    game.step(Action.play("8", 1))
    while game.phase == "interrupt" and game.legal_actions() == [Action.pass_()]:
        game.step(Action.pass_())
    assert game.current == 2 and decide(game) == "play 2x8"


def test_nominates_the_opponent_with_the_fewest_cards() -> None:
    game = position("power_deck", ["4C"], {"hand": ["AH", "5C", "6C"]},
                    {"hand": ["7C", "9C", "JC"], "face_down": ["4D", "3D"]}, {"hand": ["TS", "KD", "KH"]})
    game.step(Action.play("A", 1))
    while game.phase == "interrupt":
        game.step(Action.pass_())
    assert game.phase == "nominate"
    assert decide(game) == "nominate 2"  # 4 cards left against seat 1's 5; never itself


def test_keeps_the_joker_while_a_plain_card_will_do() -> None:
    opponent = {"hand": ["7C", "9C", "JC"]}
    assert decide(position("power_deck", ["3C"], {"hand": ["XR", "4C"]}, opponent)) == "play 1x4"
    assert decide(position("power_deck", ["KC"], {"hand": ["XR", "4C"]}, opponent)) == "play 1xJoker"


def test_plays_the_face_up_cards_taken_into_the_hand() -> None:
    game = position("harrogate", ["3C"], {"hand": [], "face_up": ["4C", "9D", "KS"]},
                    {"hand": ["7C", "9C", "JC", "QC", "QD"], "face_down": ["4D", "3D", "3H"]})
    assert game.to_dict()["players"][0]["hand"] == ["4C", "9D", "KS"]  # taken into the hand, now public
    assert decide(game) == "play 1x4"


def test_spends_one_magic_card_while_the_draw_pile_refills_the_hand_then_all_of_them() -> None:
    hand = {"hand": ["2C", "2D", "5S"]}
    opponent = {"hand": ["7C", "9C", "JC"]}
    assert decide(position("dead_last", ["KC"], hand, opponent, draw=["6H", "6D"])) == "play 1x2"
    assert decide(position("dead_last", ["KC"], hand, opponent)) == "play 2x2"
