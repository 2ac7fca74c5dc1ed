"""Game.watch: a watcher is told every legal move, before it is applied, and nothing else."""

import copy
import pickle

import numpy as np
import pytest

from shithead_env import Action, Game
from shithead_env.errors import IllegalActionError
from tests.helpers import engine_state, random_action


def test_a_watcher_sees_every_move_with_the_game_as_it_stood():
    game = Game.new("dead_last", 4, seed=1)
    seen: list[tuple[int, int, Action, list[Action]]] = []
    game.watch(lambda g, action: seen.append((g.current, g.decisions, action, g.legal_actions())))
    rng = np.random.default_rng(1)
    made = []
    while not game.is_over:
        made.append((game.current, game.decisions, action := random_action(game, rng), game.legal_actions()))
        game.step(action)
    assert seen == made and len(made) > 20


def test_a_refused_move_is_not_told_and_copies_and_saved_games_have_no_watchers():
    game = Game.new("dead_last", 4, seed=2)
    seen = []
    game.watch(lambda g, action: seen.append(action))
    before = engine_state(game)
    illegal = next(a for a in map(Action.from_index, range(200)) if a not in game.legal_actions())
    with pytest.raises(IllegalActionError):
        game.step(illegal)
    assert seen == [] and engine_state(game) == before
    assert game.copy().watchers == () and Game.from_dict(game.to_dict()).watchers == ()
    assert game.copy() == game  # a watcher is no part of the state


def test_deep_copies_and_pickles_keep_the_game_and_drop_its_watchers():
    game = Game.new("dead_last", 4, seed=3)
    game.step(game.legal_actions()[0])
    game.watch(lambda g, action: None)  # a lambda pickles no better than a bot's network sessions
    for twin in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin.watchers == () and twin == game and engine_state(twin) == engine_state(game)
        twin.step(twin.legal_actions()[0])  # and plays on
    assert len(game.watchers) == 1
