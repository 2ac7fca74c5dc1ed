"""The PettingZoo AEC environment: API conformance, seeding, rewards, illegal actions, rendering."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from shithead_env import PRESETS, IllegalActionError, load_rules, shithead_v0
from shithead_env.scoring import final_scores, place_values

TABLES = [(p, n) for p in PRESETS for n in (2, min(5, load_rules(p).max_players))]
pytestmark = pytest.mark.filterwarnings("ignore:Observation", "ignore:.*illegal")


@pytest.mark.parametrize(("preset", "n"), TABLES)
def test_pettingzoo_api_and_seed(preset: str, n: int) -> None:
    api_test(shithead_v0.env(rules=preset, num_players=n), num_cycles=300)
    seed_test(lambda: shithead_v0.env(rules=preset, num_players=n), num_cycles=300)


def play_out(env, rng: np.random.Generator) -> dict[str, float]:
    """Masked random play to the end; returns each agent's summed rewards as seen through ``last()``."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        assert env.unwrapped.agent_name_mapping[agent] == game.current
        legal = np.flatnonzero(obs["action_mask"])
        assert set(legal) == {a.index for a in game.legal_actions()}
        env.step(int(rng.choice(legal)))
    return totals


@pytest.mark.parametrize("reward", ["placement", "loser_only"])
@pytest.mark.parametrize(("preset", "n"), [("dead_last", 4), ("power_deck", 5), ("harrogate", 3)])
def test_episode_rewards_are_zero_sum_and_equal_final_scores(preset: str, n: int, reward: str) -> None:
    env = shithead_v0.env(rules=preset, num_players=n, reward=reward)
    rng = np.random.default_rng(0)
    for seed in range(3):
        env.reset(seed=seed)
        totals = play_out(env, rng)
        game = env.unwrapped.game
        assert game.is_over and not game.truncated
        scores = final_scores(game, reward)
        assert [totals[f"player_{s}"] for s in range(n)] == pytest.approx(scores)
        assert sum(totals.values()) == pytest.approx(0.0)


def test_a_seat_is_paid_the_step_it_becomes_safe() -> None:
    env = shithead_v0.raw_env(rules="dead_last", num_players=4)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    values = place_values(4)
    while not env.game.is_over:
        before = len(env.game.finish_order)
        legal = env.game.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))].index)
        if not env.game.is_over:
            for place in range(before, len(env.game.finish_order)):
                assert env.rewards[f"player_{env.game.finish_order[place]}"] == values[place]


def test_decision_cap_truncates_and_splits_the_places_left() -> None:
    env = shithead_v0.env(rules="dead_last", num_players=4, max_decisions=40)
    env.reset(seed=1)
    totals = play_out(env, np.random.default_rng(1))
    game = env.unwrapped.game
    assert game.truncated and game.decisions == 40
    assert [totals[f"player_{s}"] for s in range(4)] == pytest.approx(final_scores(game))


def test_same_seed_deals_the_same_game() -> None:
    a, b = shithead_v0.raw_env(num_players=3), shithead_v0.raw_env(num_players=3)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game == b.game
    b.reset(seed=12)
    assert a.game != b.game


def test_raw_env_raises_on_an_illegal_action_and_keeps_the_state() -> None:
    env = shithead_v0.raw_env(num_players=2)
    env.reset(seed=0)
    before = env.game.to_dict()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game.to_dict() == before


def test_wrapped_env_ends_the_game_with_minus_one_for_an_illegal_action() -> None:
    env = shithead_v0.env(num_players=3)
    env.reset(seed=0)
    offender = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1
    assert all(r == 0 for agent, r in env.rewards.items() if agent != offender)


def test_spaces_are_the_same_objects_every_call() -> None:
    env = shithead_v0.raw_env(num_players=2)
    assert env.observation_space("player_0") is env.observation_space("player_0")
    assert env.action_space("player_1") is env.action_space("player_1")
    assert env.metadata["name"] == "shithead_v0" and env.metadata["is_parallelizable"] is False


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = shithead_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "(you)" in text and "to act" in text
    human = shithead_v0.raw_env(num_players=2, render_mode="human")
    human.reset(seed=0)
    assert human.render() is None
    assert "hand:" in capsys.readouterr().out


def test_bad_arguments_fail_early() -> None:
    with pytest.raises(ValueError, match="reward"):
        shithead_v0.raw_env(reward="winner_takes_all")
    with pytest.raises(ValueError, match="players"):
        shithead_v0.raw_env(rules="pub", num_players=5)
    with pytest.raises(ValueError, match="render_mode"):
        shithead_v0.raw_env(render_mode="rgb_array")
