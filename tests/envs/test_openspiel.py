"""python_shithead: the engine as an OpenSpiel game, driven by OpenSpiel's own tests, environment and ISMCTS."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
import shithead_env.envs.openspiel as osp  # noqa: E402  (registers python_shithead)
from shithead_env import Game, encode_observation  # noqa: E402
from shithead_env.rules import CARDS_PER_PLAYER  # noqa: E402
from tests.helpers import PRESETS, typed_state  # noqa: E402


def dealt(state, rng: np.random.Generator):
    """Play the chance nodes (the deal) with ``rng``; the state at the first decision."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


def play_randomly(state, rng: np.random.Generator, moves: int):
    """``moves`` random decisions after the deal; the game must still be on, so a test of the state checks one
    where a seat decides (a seed whose game ends sooner fails here, not silently)."""
    for _ in range(moves):
        assert not state.is_terminal(), f"the game ended before {moves} moves: pick a seed whose game lasts"
        if state.is_chance_node():
            dealt(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert not state.is_terminal() and not state.is_chance_node()
    return state


def test_the_game_loads_with_its_parameters():
    game = pyspiel.load_game("python_shithead")
    assert str(game) == "python_shithead(max_decisions=600,players=4,rules=dead_last)"
    assert game.num_players() == 4 and game.num_distinct_actions() == osp.NUM_ACTIONS
    pub = pyspiel.load_game("python_shithead", {"rules": "pub", "players": 3})
    assert pub.num_players() == 3 and pub.max_game_length() == 52 + 2 + 600
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("python_shithead", {"rules": "pub", "players": 5})


@pytest.mark.parametrize("preset", PRESETS)
def test_openspiels_random_simulation_test_passes(preset):
    game = pyspiel.load_game("python_shithead", {"rules": preset, "players": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_random_simulation_with_serialization():
    game = pyspiel.load_game("python_shithead", {"rules": "dead_last", "players": 2, "max_decisions": 120})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("moves", [0, 40], ids=["mid_deal", "mid_game"])
def test_a_pickled_or_cloned_state_plays_on_as_the_original(moves):
    """A pickle and a ``clone`` (a deep copy) of a state, mid-deal or mid-game, keep every field of the engine's game
    with its type: the same actions give the same game to the end."""
    game = pyspiel.load_game("python_shithead", {"rules": "harrogate", "players": 6})
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(20 if moves == 0 else 0):  # part of the deal
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    if moves:
        play_randomly(dealt(state, rng), rng, moves)
    copies = [state, pickle.loads(pickle.dumps(state)), state.clone()]
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            action = int(rng.choice(outcomes, p=probs))
        else:
            action = int(rng.choice(state.legal_actions()))
        for other in copies:
            other.apply_action(action)
        if state.table is not None:  # dealt: the engine's game, field by field, at every step
            assert all(typed_state(other.table) == typed_state(state.table) for other in copies[1:]), steps
            steps += 1
    assert steps > 50
    assert [other.returns() for other in copies[1:]] == [state.returns()] * 2


def test_the_chance_nodes_deal_exactly_what_game_deal_deals():
    game = pyspiel.load_game("python_shithead", {"rules": "online_classic", "players": 3})
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    cards = []
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        action = int(rng.choice(outcomes, p=probs))
        cards.append(action)
        state.apply_action(action)
    deck, dealer = cards[:-1], cards[-1]  # online_classic: the opener is left of the dealer, no chance node
    expected = Game.deal("online_classic", 3, deck, dealer)
    assert state.table.hands == expected.hands and state.table.face_down == expected.face_down
    assert state.table.draw_pile == expected.draw_pile and state.table.dealer == dealer
    assert len(state.table.hands[0]) == CARDS_PER_PLAYER - 3


def test_observations_are_the_seats_encoding_and_view():
    game = pyspiel.load_game("python_shithead", {"rules": "pub", "players": 3})
    state = play_randomly(game.new_initial_state(), np.random.default_rng(0), 80)
    for seat in range(3):
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), encode_observation(state.table, seat))
        assert json.loads(state.information_state_string(seat)) == state.table.view(seat)
    observer = game.make_py_observer()
    assert set(observer.dict) == {f.name for f in osp.ENCODING.fields}


def test_a_resampled_state_is_one_the_seat_cannot_tell_apart():
    game = pyspiel.load_game("python_shithead", {"rules": "dead_last", "players": 4})
    rng = np.random.default_rng(1)
    state = play_randomly(game.new_initial_state(), rng, 90)
    seat = state.current_player()
    differs = 0
    for k in range(10):
        sample = state.resample_from_infostate(seat, lambda k=k: (k + 0.5) / 10)
        assert sample.information_state_string(seat) == state.information_state_string(seat)
        assert sample.observation_tensor(seat) == state.observation_tensor(seat)
        assert sample.legal_actions() == state.legal_actions()
        hidden = (sample.table.hands, sample.table.face_down, sample.table.draw_pile)
        differs += hidden != (state.table.hands, state.table.face_down, state.table.draw_pile)
    assert differs > 0  # the cards the seat cannot see are dealt afresh


def test_openspiels_ismcts_bot_plays_legal_moves():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_shithead", {"rules": "dead_last", "players": 2, "max_decisions": 200})
    random_state = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, random_state), 2.0, 4, random_state=random_state)
    state = play_randomly(game.new_initial_state(), np.random.default_rng(2), 70)
    checked = 0
    while checked < 3 and not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        checked += 1
    assert checked == 3


def test_openspiels_rl_environment_steps_the_game():
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(pyspiel.load_game("python_shithead", {"rules": "harrogate", "players": 2}))
    time_step = env.reset()
    rng = np.random.default_rng(4)
    steps = 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        assert len(time_step.observations["info_state"][player]) == osp.ENCODING.size
        time_step = env.step([int(rng.choice(legal))])
        steps += 1
    assert sum(time_step.rewards) == pytest.approx(0.0) and steps > 10
