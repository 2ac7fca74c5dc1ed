"""The PettingZoo AEC environment: API conformance, seeding, rewards, illegal actions, rendering."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from shithead_env import (
    ENCODING_VERSION,
    ENCODINGS,
    NUM_ACTIONS,
    PRESETS,
    IllegalActionError,
    encode_observation,
    load_rules,
    shithead_v0,
)
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


def test_reset_without_a_seed_continues_the_seeded_generator() -> None:
    """Libraries seed once and reset on their own (Tianshou, TorchRL, RLCard): the games after replay too."""
    a, b = shithead_v0.raw_env(num_players=3), shithead_v0.raw_env(num_players=3)
    for env in (a, b):
        env.reset(seed=5)
    games = []
    for _ in range(3):
        a.reset()
        b.reset()
        assert a.game == b.game
        games.append(a.game)
    assert games[0] != games[1] != games[2]
    a.reset(seed=5)
    first = a.game
    b.reset(seed=5)
    assert first == b.game  # a seed starts the sequence over


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
    with pytest.raises(ValueError, match=r"unknown observation encoding version 7; known versions: 1, 2"):
        shithead_v0.env(encoding=7)


@pytest.mark.parametrize("version", sorted(ENCODINGS))
def test_the_encoding_argument_sizes_the_spaces_and_picks_the_encoder(version: int) -> None:
    encoding = ENCODINGS[version]
    env = shithead_v0.env(rules="pub", num_players=3, encoding=version)
    env.reset(seed=5)
    space = env.observation_space("player_0")["observation"]
    assert space.shape == (encoding.size,) and np.array_equal(space.high, encoding.high)
    for agent in env.possible_agents:
        seat = env.unwrapped.agent_name_mapping[agent]
        observation = env.observe(agent)["observation"]
        assert np.array_equal(observation, encode_observation(env.unwrapped.game, seat, version))
        assert space.contains(observation)
    api_test(shithead_v0.env(rules="pub", num_players=3, encoding=version), num_cycles=100)
    assert shithead_v0.raw_env().encoding.version == ENCODING_VERSION


# env() fuses PettingZoo's TerminateIllegal, AssertOutOfBounds and OrderEnforcing wrappers into one layer
# for speed; these compare it call for call with PettingZoo's own chain over the same raw_env.


def pettingzoo_chain(**kwargs: object) -> OrderEnforcingWrapper:
    """What env() was: PettingZoo classic's wrapper chain over raw_env."""
    env = wrappers.TerminateIllegalWrapper(shithead_v0.raw_env(**kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


def outcome(call: Callable[[], object]) -> tuple[object, ...]:
    """(error type, message), or ("ok",) with PettingZoo's queued warnings, of one call."""
    EnvLogger.flush()
    try:
        call()
    except Exception as error:
        return type(error), str(error)
    return ("ok", *EnvLogger.mqueue)


def step_all(envs: tuple[AECEnv, ...], action: object) -> list[tuple[object, ...]]:
    """The outcome of one step with the same action in each env."""
    return [outcome(lambda env=env: env.step(action)) for env in envs]


def snapshot(env: AECEnv) -> tuple[object, ...]:
    """Everything an agent loop reads, with observations as lists so that == compares them."""
    obs, *rest = env.last()
    return (
        env.agent_selection, list(env.agents), dict(env.rewards), dict(env._cumulative_rewards),
        dict(env.terminations), dict(env.truncations), dict(env.infos),
        {k: v.tolist() for k, v in obs.items()}, *rest,
    )  # fmt: skip


def test_env_is_an_order_enforcing_wrapper_over_raw_env() -> None:
    env = shithead_v0.env(num_players=3)
    assert isinstance(env, OrderEnforcingWrapper) and isinstance(env.unwrapped, shithead_v0.raw_env)
    assert str(env) == str(pettingzoo_chain(num_players=3)) == "shithead_v0"
    assert env.possible_agents == ["player_0", "player_1", "player_2"] and env.unwrapped.game is None


BEFORE_RESET: dict[str, Callable[[AECEnv], object]] = {
    "step": lambda env: env.step(0),
    "observe": lambda env: env.observe("player_0"),
    "last": lambda env: env.last(),
    "render": lambda env: env.render(),
    "state": lambda env: env.state(),
    "agent_iter": lambda env: env.agent_iter(),
    **{name: (lambda env, name=name: getattr(env, name)) for name in (
        "agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents",
        "_cumulative_rewards",
    )},
}  # fmt: skip


@pytest.mark.parametrize("call", BEFORE_RESET.values(), ids=BEFORE_RESET.keys())
def test_calls_before_reset_fail_as_in_pettingzoo(call: Callable[[AECEnv], object]) -> None:
    ours, theirs = outcome(lambda: call(shithead_v0.env())), outcome(lambda: call(pettingzoo_chain()))
    assert ours == theirs and ours[0] != "ok"


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, np.int64(NUM_ACTIONS), None, 1.5, "0", 2**70])
def test_out_of_range_actions_fail_as_in_pettingzoo(action: object) -> None:
    ours, theirs = shithead_v0.env(num_players=2), pettingzoo_chain(num_players=2)
    ours.reset(seed=0)
    theirs.reset(seed=0)
    mine, pettingzoo = step_all((ours, theirs), action)
    assert mine == pettingzoo and mine[0] in (AssertionError, OverflowError)  # 2**70: numpy cannot cast it
    assert snapshot(ours) == snapshot(theirs)


@pytest.mark.parametrize("observe_first", [True, False])
def test_an_illegal_action_ends_the_game_as_in_pettingzoo(observe_first: bool) -> None:
    envs = shithead_v0.env(num_players=4), pettingzoo_chain(num_players=4)
    rng = np.random.default_rng(3)
    for env in envs:
        env.reset(seed=3)
    for _ in range(25):  # into the play phase, with cards on the pile
        action = int(rng.choice(np.flatnonzero(envs[0].last()[0]["action_mask"])))
        assert step_all(envs, action) == [("ok",)] * 2
    illegal = int(np.flatnonzero(envs[0].unwrapped.observe(envs[0].agent_selection)["action_mask"] == 0)[0])
    if observe_first:
        assert snapshot(envs[0]) == snapshot(envs[1])
    offender = envs[0].agent_selection
    ended = step_all(envs, illegal)
    assert ended[0] == ended[1] and "Illegal move" in ended[0][1]
    assert snapshot(envs[0]) == snapshot(envs[1])
    assert envs[0].rewards[offender] == -1 and all(envs[0].terminations.values())
    assert step_all(envs, 0) == [(ValueError, "when an agent is dead, the only valid action is None")] * 2
    while envs[1].agents:
        assert snapshot(envs[0]) == snapshot(envs[1])
        assert step_all(envs, None) == [("ok",)] * 2
    assert not envs[0].agents
    ours, theirs = step_all(envs, None)
    assert ours == theirs and "step() called after all agents" in ours[1]  # a warning, as in PettingZoo


@pytest.mark.parametrize(("preset", "n", "cap"), [("dead_last", 4, None), ("pub", 3, None), ("harrogate", 5, 60)])
def test_whole_games_match_pettingzoo_step_for_step(preset: str, n: int, cap: int | None) -> None:
    envs = [make(rules=preset, num_players=n, max_decisions=cap) for make in (shithead_v0.env, pettingzoo_chain)]
    rng = np.random.default_rng(7)
    for seed in range(2):
        for env in envs:
            env.reset(seed=seed)
        for agent, other in zip(envs[0].agent_iter(), envs[1].agent_iter(), strict=True):
            assert agent == other
            seen = snapshot(envs[0])
            assert seen == snapshot(envs[1])
            terminated, truncated = seen[-3], seen[-2]
            action = None if terminated or truncated else int(rng.choice(np.flatnonzero(seen[7]["action_mask"])))
            for env in envs:
                env.step(action)
        assert not envs[1].agents
