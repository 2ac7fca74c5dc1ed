"""The Gymnasium single-agent view: registration, checkers, opponents, rewards, vector envs, MaskablePPO."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from shithead_env import ENCODING_VERSION, ENCODINGS, PRESETS, SINGLE_AGENT_ID, Action, encode_observation
from shithead_env.envs.single_agent import ShitheadEnv, bot_spec_resolvers
from shithead_env.scoring import final_scores, place_values


def learner_outcome(env: ShitheadEnv) -> float:
    """The learner's score once its place is decided."""
    game = env.game
    if env.learner in game.finish_order and not game.truncated:
        return place_values(game.num_players, env.reward_scheme)[game.finish_order.index(env.learner)]
    return final_scores(game, env.reward_scheme)[env.learner]


def run_episode(env: ShitheadEnv, seed: int | None, rng: np.random.Generator) -> tuple[float, list[int]]:
    obs, info = env.reset(seed=seed)
    total, actions = 0.0, []
    while True:
        assert np.array_equal(info["action_mask"].astype(bool), env.action_masks())
        assert env.game.current == env.learner
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        actions.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert np.array_equal(obs, encode_observation(env.game, env.learner, env.encoding.version))
        total += reward
        if terminated or truncated:
            return total, actions


@pytest.mark.parametrize("preset", PRESETS)
def test_registered_on_import_and_passes_gymnasium_check_env(preset: str) -> None:
    env = gymnasium.make(SINGLE_AGENT_ID, rules=preset, num_players=3, opponents="random")
    check_env(env.unwrapped, skip_render_check=True)
    assert env.observation_space.shape == env.unwrapped.observation_space.shape


def test_passes_sb3_check_env() -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3_checker.check_env(ShitheadEnv(rules="power_deck", num_players=4), warn=True)


@pytest.mark.parametrize("reward", ["placement", "loser_only"])
@pytest.mark.parametrize(("preset", "n"), [("dead_last", 4), ("power_deck", 3), ("harrogate", 2)])
def test_learner_reward_is_its_final_score(preset: str, n: int, reward: str) -> None:
    env = ShitheadEnv(rules=preset, num_players=n, reward=reward)
    rng = np.random.default_rng(0)
    for seed in range(4):
        total, _ = run_episode(env, seed, rng)
        assert total == pytest.approx(learner_outcome(env))


def test_same_seed_same_episode_and_random_learner_seat() -> None:
    env = ShitheadEnv(num_players=4)
    first = run_episode(env, 3, np.random.default_rng(1))
    again = run_episode(env, 3, np.random.default_rng(1))
    assert first == again
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(20)}
    assert seats == {0, 1, 2, 3}
    assert {ShitheadEnv(num_players=4, learner_seat=2).reset(seed=s)[1]["learner_seat"] for s in range(5)} == {2}


def test_truncation_at_the_decision_cap() -> None:
    env = ShitheadEnv(num_players=3, max_decisions=25, learner_seat=0)
    total, _ = run_episode(env, 0, np.random.default_rng(0))
    assert env.game.truncated
    assert total == pytest.approx(final_scores(env.game)[0])


def test_a_cap_that_ends_the_game_before_the_learners_first_turn_is_refused_at_reset() -> None:
    """reset() never hands back an episode that is already over (Gymnasium's contract)."""
    env = ShitheadEnv(num_players=4, opponents="heuristic", max_decisions=1, learner_seat=3)
    with pytest.raises(ValueError, match=r"^max_decisions=1 ends the game before the learner \(seat 3\) is asked "
                                         r"anything; allow more decisions$"):
        env.reset(seed=0)
    _, info = env.reset(seed=2)  # a deal where the learner opens: its one decision is there
    assert info["action_mask"].any()


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    env = ShitheadEnv(num_players=2)
    _, info = env.reset(seed=0)
    before = env.game.to_dict()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert env.game.to_dict() == before


class FirstLegalBot:
    """A bot object with the agents/ protocol: act(view, rng) -> Action."""

    def __init__(self) -> None:
        self.rngs: list[np.random.Generator] = []

    def act(self, view: dict[str, Any], rng: np.random.Generator) -> Action:
        self.rngs.append(rng)
        return Action.from_dict(view["legal_actions"][0])


def test_opponent_kinds_callable_bot_object_and_list() -> None:
    calls: list[tuple[np.ndarray, np.ndarray]] = []

    def lowest_index(observation: np.ndarray, mask: np.ndarray) -> int:
        calls.append((observation, mask))
        return int(np.flatnonzero(mask)[0])

    bot = FirstLegalBot()
    env = ShitheadEnv(num_players=3, opponents=[lowest_index, bot], learner_seat=0)
    run_episode(env, 0, np.random.default_rng(0))
    assert calls and bot.rngs
    assert all(rng is env.np_random for rng in bot.rngs)
    assert all(obs.shape == env.observation_space.shape for obs, _ in calls)
    with pytest.raises(ValueError, match="one opponent per other seat"):
        ShitheadEnv(num_players=3, opponents=["random"])
    with pytest.raises(TypeError, match="opponent"):
        ShitheadEnv(num_players=2, opponents=[42])


@pytest.mark.parametrize("version", sorted(ENCODINGS))
def test_the_encoding_argument_sizes_the_space_and_picks_the_encoder(version: int) -> None:
    encoding = ENCODINGS[version]
    seen: list[np.ndarray] = []

    def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
        seen.append(observation)
        return int(np.flatnonzero(mask)[0])

    env = ShitheadEnv(rules="pub", num_players=3, opponents=first_legal, encoding=version)
    assert env.encoding is encoding and env.observation_space.shape == (encoding.size,)
    assert np.array_equal(env.observation_space.low, encoding.low)
    assert np.array_equal(env.observation_space.high, encoding.high)
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)
    assert np.array_equal(obs, encode_observation(env.game, env.learner, version))
    run_episode(env, 4, np.random.default_rng(1))
    assert seen and all(o.shape == (encoding.size,) for o in seen)  # callable opponents get the same version
    made = gymnasium.make(SINGLE_AGENT_ID, encoding=version, disable_env_checker=True)
    assert made.observation_space.shape == (encoding.size,)


def test_the_default_encoding_is_the_current_version() -> None:
    assert ShitheadEnv().encoding.version == ENCODING_VERSION
    assert gymnasium.spec(SINGLE_AGENT_ID).kwargs["encoding"] == ENCODING_VERSION


@pytest.mark.parametrize("bad", [0, 3, "1"])
def test_an_unknown_encoding_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match=r"unknown observation encoding version .*known versions: 1, 2"):
        ShitheadEnv(encoding=bad)  # type: ignore[arg-type]


def test_bot_spec_strings_resolve_through_agents() -> None:
    env = ShitheadEnv(rules="dead_last", num_players=3, opponents="heuristic")
    run_episode(env, 0, np.random.default_rng(0))


def test_bot_specs_resolve_through_the_installed_entry_point() -> None:
    """agents declares the resolver in pyproject.toml; the env layer never imports it."""
    assert [point.value for point in bot_spec_resolvers()] == ["agents.base:make_bot"]
    env = gymnasium.make(SINGLE_AGENT_ID, num_players=3, opponents="heuristic")
    assert env.reset(seed=0)[0].shape == env.observation_space.shape


@pytest.mark.parametrize("spec", ["nonsense", "heuristic:depth=3"])
def test_an_unresolvable_bot_spec_is_a_clear_error(spec: str) -> None:
    with pytest.raises(ValueError, match=f"cannot resolve opponent spec {spec!r}"):
        ShitheadEnv(num_players=2, opponents=spec)


def test_render_from_the_learner_seat() -> None:
    env = ShitheadEnv(num_players=2, render_mode="ansi", learner_seat=1)
    env.reset(seed=0)
    assert "P1 (you)" in env.render()


def make_env() -> ShitheadEnv:
    return ShitheadEnv(rules="dead_last", num_players=3)


def test_sb3_vector_envs() -> None:
    """SubprocVecEnv gives DummyVecEnv's results: tests/envs/test_env_pickle.py."""
    vec_env_module = pytest.importorskip("stable_baselines3.common.vec_env")
    venv = vec_env_module.DummyVecEnv([make_env, make_env])
    venv.seed(0)
    obs = venv.reset()
    assert obs.shape == (2, *venv.observation_space.shape)
    rng = np.random.default_rng(0)
    for _ in range(60):
        masks = np.stack(venv.env_method("action_masks"))
        venv.step_async(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        obs, _, _, infos = venv.step_wait()
        assert obs.dtype == np.float32 and all("action_mask" in info for info in infos)
    venv.close()


def test_maskable_ppo_learns_a_few_steps() -> None:
    sb3_contrib = pytest.importorskip("sb3_contrib")
    model = sb3_contrib.MaskablePPO("MlpPolicy", ShitheadEnv(num_players=3), n_steps=64, batch_size=32, seed=0)
    model.learn(total_timesteps=64)
    env = ShitheadEnv(num_players=3)
    obs, info = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert info["action_mask"][int(action)] == 1


@pytest.mark.parametrize("rules", ["pub", "power_deck"])
def test_forced_window_passes_are_played_for_the_learner(rules: str) -> None:
    env = ShitheadEnv(rules=rules, num_players=4, opponents="heuristic", learner_seat=0)
    rng = np.random.default_rng(0)
    window_decisions = 0
    for seed in range(8):
        env.reset(seed=seed)
        done = False
        while not done:
            legal = env.game.legal_actions()
            assert legal != [Action.pass_()], "the learner was handed a decision it does not have"
            window_decisions += env.game.phase == "interrupt"
            action = int(rng.choice(np.flatnonzero(env.action_masks())))
            _, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
    assert window_decisions > 0  # the learner still decides real snatches and dumps


@pytest.mark.parametrize("mode", ["NEXT_STEP", "SAME_STEP"])
def test_vector_env_masks_are_never_all_zero_under_either_autoreset_mode(mode: str) -> None:
    """What a masked policy over ``gymnasium.make_vec`` samples from: every row has a legal action."""
    from gymnasium.vector import AutoresetMode

    envs = gymnasium.make_vec(SINGLE_AGENT_ID, num_envs=4, vectorization_mode="sync", opponents="random",
                              vector_kwargs={"autoreset_mode": AutoresetMode[mode]})
    _, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(300):
        masks = infos["action_mask"].astype(bool)
        assert masks.shape == (4, envs.single_action_space.n) and masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        _, _, terminated, truncated, infos = envs.step(actions)
        ends += int((terminated | truncated).sum())
    assert ends > 4  # episodes did end, and the step after each was a reset with a legal mask
    envs.close()


def test_the_mask_after_the_episode_allows_pass_alone_and_stepping_on_is_refused() -> None:
    from shithead_env.envs.single_agent import NO_DECISION_MASK

    env = ShitheadEnv(opponents="random")
    _, info = env.reset(seed=3)
    done, rng = False, np.random.default_rng(3)
    while not done:
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    assert np.array_equal(info["action_mask"], NO_DECISION_MASK) and np.flatnonzero(NO_DECISION_MASK).tolist() == [
        Action.pass_().index
    ]
    assert np.array_equal(env.action_masks(), NO_DECISION_MASK.astype(bool))
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(Action.pass_().index)


@pytest.mark.parametrize("call", ["action_masks", "step", "render"])
def test_gymnasium_make_reaches_action_masks_and_says_to_reset_first(call: str) -> None:
    env = gymnasium.make(SINGLE_AGENT_ID, opponents="random", render_mode="ansi")
    args = (0,) if call == "step" else ()
    with pytest.raises(RuntimeError, match=r"before the first reset\(\)"):
        getattr(env, call)(*args)
    _, info = env.reset(seed=0)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
