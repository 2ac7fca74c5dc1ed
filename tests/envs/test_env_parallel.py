"""shithead_v0.parallel_env: PettingZoo's Parallel API test, one acting agent a step, rewards, masks, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

from shithead_env import PRESETS, Action, encode_observation, shithead_v0
from shithead_env.envs.single_agent import NO_DECISION_MASK
from shithead_env.scoring import final_scores


@pytest.mark.parametrize("preset", PRESETS)
def test_passes_pettingzoo_parallel_api_and_seed_tests(preset: str) -> None:
    parallel_api_test(shithead_v0.parallel_env(rules=preset, num_players=3), num_cycles=500)
    parallel_seed_test(lambda: shithead_v0.parallel_env(rules=preset, num_players=3), num_cycles=300)


@pytest.mark.parametrize(("preset", "players"), [("dead_last", 4), ("power_deck", 5), ("pub", 3), ("harrogate", 6)])
def test_masked_games_pay_each_seat_its_final_score_and_one_agent_acts_a_step(preset: str, players: int) -> None:
    env = shithead_v0.parallel_env(rules=preset, num_players=players)
    rng = np.random.default_rng(players)
    for game_seed in range(4):
        observations, infos = env.reset(seed=game_seed)
        paid = dict.fromkeys(env.possible_agents, 0.0)
        while env.agents:
            acting = [a for a in env.agents if infos[a]["acting"]]
            assert acting == [env.acting] and set(env.agents) <= set(observations)  # the just-ended get theirs too
            for agent in env.agents:
                seat = env.possible_agents.index(agent)
                assert np.array_equal(observations[agent], encode_observation(env.game, seat))
                if agent != env.acting:
                    assert np.array_equal(infos[agent]["action_mask"], NO_DECISION_MASK)
            mask = infos[env.acting]["action_mask"]
            assert {Action.from_index(int(i)) for i in np.flatnonzero(mask)} == set(env.game.legal_actions())
            actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in env.agents}
            observations, rewards, terminations, truncations, infos = env.step(actions)
            for agent, value in rewards.items():
                paid[agent] += value
            assert env.agents == [a for a in rewards if not (terminations[a] or truncations[a])]
        scores = final_scores(env.game)
        assert [paid[a] for a in env.possible_agents] == pytest.approx(scores)


def test_an_illegal_action_ends_the_game_with_minus_one_for_the_offender() -> None:
    env = shithead_v0.parallel_env()
    _, infos = env.reset(seed=0)
    agent = env.acting
    illegal = int(np.flatnonzero(infos[agent]["action_mask"] == 0)[0])
    _, rewards, terminations, _, infos = env.step({agent: illegal})
    assert rewards[agent] == -1.0 and sum(rewards.values()) == -1.0
    assert all(terminations.values()) and env.agents == [] and not any(i["acting"] for i in infos.values())
    with pytest.raises(RuntimeError, match="call reset"):
        env.step({agent: 0})


@pytest.mark.parametrize(("actions", "words"), [({}, "acting agent"), ([0], "acting agent"), ("x", "acting agent")])
def test_a_step_without_the_acting_agents_action_is_refused_by_name(actions: object, words: str) -> None:
    env = shithead_v0.parallel_env()
    env.reset(seed=1)
    before = env.game.to_dict()
    with pytest.raises(ValueError, match=words):
        env.step(actions)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="must be an int"):
        env.step({env.acting: 999})
    assert env.game.to_dict() == before


def test_same_seed_same_game() -> None:
    first, second = shithead_v0.parallel_env(), shithead_v0.parallel_env()
    a, _ = first.reset(seed=7)
    b, _ = second.reset(seed=7)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    first.reset()
    second.reset()
    assert first.game == second.game  # reset() without a seed continues the seeded generator
    with pytest.raises(RuntimeError, match="before the first reset"):
        shithead_v0.parallel_env().step({"player_0": 0})
