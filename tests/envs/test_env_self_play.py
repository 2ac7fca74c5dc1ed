"""SelfPlayVectorEnv against the engine played by hand: every row the acting seat's view, rewards paid per seat."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode

from shithead_env import NUM_ACTIONS, Action, Game, action_mask, encode_observation
from shithead_env.envs.self_play import SelfPlayVectorEnv
from shithead_env.scoring import final_scores


class Reference:
    """One table played straight on the engine, as the env's docs say: same seed, same deal, forced passes passed."""

    def __init__(self, rules: str, players: int, seed: int, max_decisions: int | None) -> None:
        self.rules, self.players, self.max_decisions = rules, players, max_decisions
        self.rng = seeding.np_random(seed)[0]
        self.deal()

    def deal(self) -> None:
        self.game = Game.new(self.rules, self.players, seed=self.rng, max_decisions=self.max_decisions)
        self.returns = np.zeros(self.players)
        self.placed = np.zeros(self.players, int)
        self.pass_forced()

    def pass_forced(self) -> None:
        while self.game.only_pass:
            self.game.step(Action.pass_())


def lowest_or_random(mask: np.ndarray, rng: np.random.Generator) -> int:
    """Mostly the lowest legal index (the lowest play: games end sooner than under random play), else any legal."""
    legal = np.flatnonzero(mask)
    return int(legal[0] if rng.random() < 0.8 else rng.choice(legal))


@pytest.mark.parametrize(
    ("rules", "players", "max_decisions"), [("dead_last", 2, None), ("pub", 3, 120), ("power_deck", 5, 80)]
)
def test_rows_rewards_and_autoreset_match_the_engine(rules: str, players: int, max_decisions: int | None) -> None:
    num_envs, seed = 4, 3
    env = SelfPlayVectorEnv(num_envs, rules=rules, num_players=players, max_decisions=max_decisions)
    refs = [Reference(rules, players, seed + i, max_decisions) for i in range(num_envs)]
    observations, infos = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    games = natural = 0
    for _ in range(300):
        for row, ref in enumerate(refs):
            seat = ref.game.current
            assert infos["seat"][row] == seat
            assert observations[row].tobytes() == encode_observation(ref.game, seat).tobytes()
            assert np.array_equal(infos["action_mask"][row], action_mask(ref.game, seat))
        actions = np.array([lowest_or_random(mask, rng) for mask in infos["action_mask"]])
        observations, rewards, terminations, truncations, infos = env.step(actions)
        for row, ref in enumerate(refs):
            actor = ref.game.current
            ref.game.step(Action.from_index(int(actions[row])))
            ref.pass_forced()
            ref.returns += infos["rewards"][row]
            ref.placed += infos["placed"][row]
            assert rewards[row] == infos["rewards"][row, actor]
            over = ref.game.is_over
            assert (terminations[row] or truncations[row]) == over and truncations[row] == ref.game.truncated
            if over:
                games += 1
                natural += not ref.game.truncated
                np.testing.assert_allclose(ref.returns, final_scores(ref.game, "placement"))
                assert ref.placed.tolist() == [1] * players  # every seat's episode closed once
                for seat in range(players):
                    assert infos["final_obs"][row][seat].tobytes() == encode_observation(ref.game, seat).tobytes()
                assert not infos["final_info"]["illegal_action"][row]
                ref.deal()
            else:
                for seat in range(players):  # a seat is closed once it has nothing left to do
                    done = not ref.game.is_active(seat) and ref.game.current != seat
                    assert ref.placed[seat] == done
    assert games >= num_envs and (natural or max_decisions)


def test_an_illegal_action_ends_the_game_for_the_offender() -> None:
    env = SelfPlayVectorEnv(2, rules="pub", num_players=3)
    _, infos = env.reset(seed=0)
    offender = int(infos["seat"][0])
    illegal = int(np.flatnonzero(infos["action_mask"][0] == 0)[0])
    legal = int(np.flatnonzero(infos["action_mask"][1])[0])
    _, rewards, terminations, truncations, infos = env.step([illegal, legal])
    assert terminations.tolist() == [True, False] and not truncations.any()
    assert rewards[0] == -1 and infos["rewards"][0].tolist() == [-1.0 if s == offender else 0.0 for s in range(3)]
    assert infos["placed"][0].all() and not infos["placed"][1].any()
    assert infos["final_info"]["illegal_action"].tolist() == [True, False]
    assert infos["_final_obs"].tolist() == [True, False] and infos["final_obs"][0].shape == (3, env.encoding.size)
    assert env.games[0].decisions == 0  # dealt again


def test_vector_conventions_determinism_and_errors() -> None:
    env = SelfPlayVectorEnv(3)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.action_space.shape == (3,) and env.single_action_space.n == NUM_ACTIONS
    with pytest.raises(RuntimeError, match="call reset"):
        env.step([0, 0, 0])
    runs = []
    for _ in range(2):
        observations, infos = env.reset(seed=5)
        trail = [observations.tobytes()]
        for _ in range(30):
            observations, *_, infos = env.step(infos["action_mask"].argmax(axis=1))
            trail.append(observations.tobytes())
        runs.append(trail)
    assert runs[0] == runs[1]
    assert observations in env.observation_space
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        env.step([0])
    with pytest.raises(ValueError, match="players"):
        SelfPlayVectorEnv(2, rules="pub", num_players=9)
