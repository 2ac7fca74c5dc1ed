"""``reward_timing="own_turn"``: each seat's reward on its own last step, as Tianshou and TorchRL read it.

Both libraries step the AEC env, read ``env.rewards`` right after, and credit the
row to the agent that took the step (tests/envs/test_library_rewards.py drives
their own wrappers). ``replay`` here reads the env the same way without them.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from shithead_env import NUM_ACTIONS, Action, IllegalActionError, shithead_v0
from shithead_env.envs.single_agent import NO_DECISION_MASK, PASS
from shithead_env.scoring import final_scores

pytestmark = pytest.mark.filterwarnings("ignore:Observation", "ignore:.*illegal")


Row = tuple[str, int, dict[str, float]]  # the agent that stepped, its action, ``env.rewards`` after the step


def replay(env, seed: int, rng: np.random.Generator) -> tuple[list[Row], int]:
    """One game read as the libraries do, a ``Row`` per step.

    Also returns how many steps were taken after the game was over (closing turns).
    """
    env.reset(seed=seed)
    raw = env.unwrapped
    rows: list[Row] = []
    closing = 0
    while not all(raw.terminations[a] or raw.truncations[a] for a in raw.agents):
        agent = raw.agent_selection
        observation, *_ = env.last()
        closing += raw.game.is_over
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        rows.append((agent, action, dict(raw.rewards)))
    return rows, closing


def own_rows_only(rows: list[Row]) -> dict[str, float]:
    """Each agent's rewards summed over its own rows; fails if any reward lands elsewhere or before its last row."""
    last_row = {agent: i for i, (agent, _, _) in enumerate(rows)}
    totals: dict[str, float] = {}
    for i, (agent, _, rewards) in enumerate(rows):
        for who, value in rewards.items():
            if value:
                assert who == agent, f"row {i}: {who}'s reward {value} on {agent}'s step"
                assert i == last_row[who], f"row {i}: {who}'s reward {value} before its last step {last_row[who]}"
                totals[who] = totals.get(who, 0.0) + value
    return totals


@pytest.mark.parametrize("reward", ["placement", "loser_only"])
@pytest.mark.parametrize(("preset", "n"), [("dead_last", 2), ("dead_last", 4), ("pub", 3), ("power_deck", 5)])
def test_own_turn_pays_every_seat_on_its_own_last_step(preset: str, n: int, reward: str) -> None:
    env = shithead_v0.env(rules=preset, num_players=n, reward=reward, reward_timing="own_turn")
    rng = np.random.default_rng(0)
    for seed in range(4):
        rows, closing = replay(env, seed, rng)
        game = env.unwrapped.game
        scores = final_scores(game, reward)
        totals = own_rows_only(rows)
        assert [totals.get(f"player_{s}", 0.0) for s in range(n)] == pytest.approx(scores)
        assert closing == 1  # the shithead's: every other seat went out on its own move
        loser = rows[-1][0]
        assert loser == f"player_{game.finish_order[-1]}"


def test_a_seat_out_on_a_nominating_card_is_paid_on_its_nomination() -> None:
    env = shithead_v0.env(rules="power_deck", num_players=5, reward_timing="own_turn")
    rng = np.random.default_rng(0)
    found = 0
    for seed in range(10):
        rows, _ = replay(env, seed, rng)
        own_rows_only(rows)
        for i, (agent, action, rewards) in enumerate(rows[:-2]):
            if rewards[agent] and Action.from_index(action).kind == "nominate":
                assert rows[i - 1][0] == agent and not any(rows[i - 1][2].values())  # its last card, unpaid
                found += 1
    assert found  # power_deck at 5 seats: 5 in these 10 games


def test_truncated_game_gives_each_unfinished_seat_a_closing_turn() -> None:
    env = shithead_v0.env(rules="dead_last", num_players=4, max_decisions=40, reward_timing="own_turn")
    rng = np.random.default_rng(1)
    rows, closing = replay(env, 3, rng)
    raw = env.unwrapped
    assert raw.game.truncated and not raw.game.finish_order
    assert closing == 3  # the last mover is paid on its own step; the other three get closing turns
    assert all(raw.truncations.values()) and not any(raw.terminations.values())
    totals = own_rows_only(rows)
    scores = final_scores(raw.game, "placement")
    assert [totals.get(f"player_{s}", 0.0) for s in range(4)] == pytest.approx(scores)
    last_mover = raw.agent_name_mapping[rows[-4][0]]
    assert [agent for agent, _, _ in rows[-3:]] == [f"player_{(last_mover + d) % 4}" for d in (1, 2, 3)]  # clockwise


def test_decided_timing_credits_the_loser_on_another_seats_step() -> None:
    """The default, which the libraries misread: the move that ends the game pays the shithead too."""
    env = shithead_v0.env(rules="dead_last", num_players=3)
    rng = np.random.default_rng(0)
    rows, closing = replay(env, 0, rng)
    agent, _, rewards = rows[-1]
    loser = f"player_{env.unwrapped.game.finish_order[-1]}"
    assert closing == 0 and agent != loser and rewards[loser] == -1.0
    with pytest.raises(AssertionError, match=f"{loser}'s reward -1.0 on {agent}'s step"):
        own_rows_only(rows)


def test_closing_turn_allows_pass_alone() -> None:
    raw = shithead_v0.raw_env(rules="dead_last", num_players=2, reward_timing="own_turn")
    raw.reset(seed=0)
    rng = np.random.default_rng(0)
    while not raw.game.is_over:
        mask = raw.observe(raw.agent_selection)["action_mask"]
        raw.step(int(rng.choice(np.flatnonzero(mask))))
    loser = raw.agent_selection
    assert loser == f"player_{raw.game.finish_order[-1]}" and not raw.terminations[loser]
    np.testing.assert_array_equal(raw.observe(loser)["action_mask"], NO_DECISION_MASK)
    winner = next(a for a in raw.agents if a != loser)
    assert not raw.observe(winner)["action_mask"].any()
    with pytest.raises(IllegalActionError, match="closing turn allows pass"):
        raw.step(PASS.index - 1)
    raw.step(PASS.index)
    assert raw.rewards[loser] == -1.0 and all(raw.terminations.values())


def test_illegal_action_on_a_closing_turn_ends_the_game_as_any_other() -> None:
    env = shithead_v0.env(rules="dead_last", num_players=2, reward_timing="own_turn")
    env.reset(seed=0)
    raw, rng = env.unwrapped, np.random.default_rng(0)
    while not raw.game.is_over:
        observation, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    loser = raw.agent_selection
    env.step(NUM_ACTIONS - 2)
    assert raw.rewards[loser] == -1.0 and all(raw.terminations.values())


def test_own_turn_passes_the_pettingzoo_api_and_seed_tests() -> None:
    api_test(shithead_v0.env(rules="pub", num_players=3, reward_timing="own_turn"), num_cycles=300)
    seed_test(lambda: shithead_v0.env(rules="pub", num_players=3, reward_timing="own_turn"), num_cycles=300)


def test_unknown_reward_timing_is_refused() -> None:
    with pytest.raises(ValueError, match=r"reward_timing must be one of \['decided', 'own_turn'\], got 'later'"):
        shithead_v0.env(reward_timing="later")
