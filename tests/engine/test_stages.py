"""``Knowledge.stage`` and ``Game.stage``: where a seat's game stands when it decides (swap, pile, hand, table)."""

from __future__ import annotations

from shithead_env import Knowledge
from shithead_env.phases import STAGES, SWAP
from tests.helpers import random_positions


def test_every_game_passes_the_stages_in_order_and_each_means_what_it_says() -> None:
    seen = set()
    for preset in ("dead_last", "pub", "power_deck"):
        last = None
        for game in random_positions(preset, 4, seed=3, games=6):
            if game.is_over:
                last = None
                continue
            knowledge = Knowledge.from_game(game, game.current)
            stage = knowledge.stage
            assert game.stage(game.current) == stage  # the engine's shortcut agrees with the seat's view
            seen.add(stage)
            assert (stage == "swap") == (knowledge.phase == SWAP)
            assert (stage == "pile") == (knowledge.phase != SWAP and knowledge.draw_size > 0)
            if stage == "hand":
                assert knowledge.draw_size == 0 and knowledge.hand
            if stage == "table":
                assert knowledge.draw_size == 0 and not knowledge.hand
            if last in ("hand", "table"):  # the draw pile never comes back
                assert stage in ("hand", "table")
            if last == "pile":
                assert stage != "swap"
            last = stage
    assert seen == set(STAGES)
