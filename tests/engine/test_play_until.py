"""Game.play_until: the one loop that plays a table until a given seat must decide."""

import numpy as np

from shithead_env import Action, Game
from tests.helpers import random_action


def test_the_loop_stops_where_a_decider_must_decide_and_passes_its_lone_passes():
    stops = lone_passes = 0
    for seed in range(6):
        game = Game.new("pub", 4, seed=seed)  # snatch windows ask seats that can only pass
        rng = np.random.default_rng(seed)
        moved: list[tuple[int, Action, bool]] = []

        def step(action: Action, game: Game = game, moved: list = moved) -> None:
            moved.append((game.current, action, game.only_pass))
            game.step(action)

        def move(seat: int, game: Game = game, rng: np.random.Generator = rng) -> Action:
            assert seat != 0 and seat == game.current
            return random_action(game, rng)

        while (seat := game.play_until({0}, move, step=step)) is not None:
            assert seat == 0 == game.current and not game.only_pass
            stops += 1
            step(random_action(game, rng))
        assert game.is_over
        made_for_0 = [action for who, action, lone in moved if who == 0 and lone]
        assert all(action == Action.pass_() for action in made_for_0)
        lone_passes += len(made_for_0)
    assert stops > 0 and lone_passes > 0


def test_until_stops_at_once_and_a_decider_may_be_asked_its_lone_passes():
    game = Game.new("pub", 4, seed=3)
    rng = np.random.default_rng(0)
    assert game.play_until({0, 1, 2, 3}, lambda seat: random_action(game, rng), until=lambda: True) is None
    assert game.decisions == 0  # until() holds before the first move

    asked_lone = 0
    for seed in range(6):
        game = Game.new("pub", 4, seed=seed)
        while (seat := game.play_until({0}, lambda seat, g=game: random_action(g, rng), pass_for_deciders=False)) \
                is not None:
            assert seat == 0
            asked_lone += game.only_pass
            game.step(random_action(game, rng))
    assert asked_lone > 0  # what the first test's loop passed for, here asked
