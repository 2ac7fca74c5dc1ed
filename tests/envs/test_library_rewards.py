"""50 games through Tianshou's and TorchRL's own PettingZoo wrappers: where does each loser's -1 land?

Both credit ``env.rewards`` after a step to the agent that took the step
(Tianshou: the row's ``obs.agent_id``, which ``MultiAgentOffPolicyAlgorithm``
splits on; TorchRL: the group whose ``mask`` is True). With
``reward_timing="own_turn"`` every loser's -1 is on the loser's own last row;
with the default it is on the winner's row, which these libraries never give
the loser. The libraries' pins clash with the test venv's, so
scripts/examples.sh runs this module in each library's own virtualenv
(scripts/venv.sh: ``setup_library_venv``); in the main suite it is skipped.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from shithead_env import shithead_v0

GAMES = 50
CONTRAST_GAMES = 10  # the default timing's misreading shows in every game; fewer keep TorchRL's ~12 ms steps short
TABLE = {"rules": "harrogate", "num_players": 3}  # about 80 steps a game with ``lowest_first``
pytestmark = pytest.mark.filterwarnings("ignore")


def lowest_first(mask: np.ndarray) -> int:
    """A quick game: play the lowest legal rank with every copy, else the first legal action."""
    legal = np.flatnonzero(mask)
    plays = legal[legal < 112]  # play(rank, count) = rank * 8 + count - 1 (docs/environments.md)
    if len(plays):
        return int(plays[plays // 8 == plays.min() // 8].max())
    return int(legal[0])


def make_env(reward_timing: str):
    return shithead_v0.env(**TABLE, reward_timing=reward_timing)


def tianshou_losers(reward_timing: str, games: int) -> tuple[int, int, int]:
    """(games, losers' -1 in the loser's own batch, ... on the loser's last row) from Tianshou's own split."""
    pytest.importorskip("tianshou", reason="Tianshou runs in its own venv: bash scripts/examples.sh")
    from tianshou.algorithm import MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
    from tianshou.data import Batch, Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.env.pettingzoo_env import PettingZooEnv

    class LowestFirst(MARLRandomDiscreteMaskedOffPolicyAlgorithm):
        class Policy(MARLRandomDiscreteMaskedOffPolicyAlgorithm.Policy):
            def forward(self, batch, state=None, **kwargs):  # type: ignore[override]
                return Batch(act=np.array([lowest_first(m) for m in batch.obs.mask]))

    def make() -> PettingZooEnv:
        return PettingZooEnv(make_env(reward_timing))

    env = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[LowestFirst(action_space=env.action_space) for _ in env.agents], env=env
    )
    venv = DummyVectorEnv([make])
    venv.seed(0)
    buffer = VectorReplayBuffer(50_000, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        Collector[CollectStats](algorithm, venv, buffer).collect(n_episode=games, reset_before_collect=True)
    rows = buffer[np.arange(len(buffer))]
    played = int(rows.done.sum())
    batch, indices = buffer.sample(0)  # the whole buffer, in order
    per_agent = algorithm._preprocess_batch(batch, buffer, indices)  # what each agent's learner is given
    own = sum(int((per_agent[agent].rew == -1).sum()) for agent in env.agents)
    last = 0
    start = 0
    for end in np.flatnonzero(rows.done):  # each game: the loser's own rows, is the -1 on its last one?
        game = rows[start : end + 1]
        for seat, agent in enumerate(env.agents):
            mine = np.flatnonzero(game.obs.agent_id == agent)
            last += int(game.rew[mine[-1], seat] == -1)
        start = end + 1
    return played, own, last


def torchrl_losers(reward_timing: str, games: int) -> tuple[int, int, int]:
    """(games, losers' -1 on a row where the loser's ``mask`` is True, ... on its last such row)."""
    pytest.importorskip("torchrl", reason="TorchRL runs in its own venv: bash scripts/examples.sh")
    import torch
    from torchrl.envs.libs.pettingzoo import PettingZooWrapper
    from torchrl.envs.utils import MarlGroupMapType

    group_map = MarlGroupMapType.ALL_IN_ONE_GROUP  # the default (a group per agent) reads the same, 1.5x slower
    env = PettingZooWrapper(env=make_env(reward_timing), use_mask=True, seed=0, group_map=group_map)
    groups = list(env.group_map.items())
    td = env.reset()
    played = own = last = 0
    last_row: dict[str, int] = {}
    losses: list[tuple[str, int]] = []  # (agent, row) of each -1, and whether the agent acted on that row
    acted: set[tuple[str, int]] = set()
    row = 0
    while played < games:
        for group, agents in groups:
            masks = td[group, "mask"]
            actions = torch.zeros(len(agents), dtype=torch.int64)
            for i, agent in enumerate(agents):
                if masks[i]:
                    actions[i] = lowest_first(td[group, "action_mask"][i].numpy())
                    last_row[agent] = row
                    acted.add((agent, row))
            td[group, "action"] = actions
        td, next_td = env.step_and_maybe_reset(td)
        for group, agents in groups:
            for i, agent in enumerate(agents):
                if td["next", group, "reward"][i].item() == -1:
                    losses.append((agent, row))
        if td["next", "done"].item():
            played += 1
            own += sum((agent, r) in acted for agent, r in losses)
            last += sum(last_row.get(agent) == r for agent, r in losses)
            losses, last_row = [], {}
        td = next_td
        row += 1
    return played, own, last


@pytest.mark.parametrize("losers", [tianshou_losers, torchrl_losers], ids=["tianshou", "torchrl"])
def test_own_turn_puts_every_losers_reward_on_its_own_last_transition(losers) -> None:
    assert losers("own_turn", GAMES) == (GAMES, GAMES, GAMES)


@pytest.mark.parametrize("losers", [tianshou_losers, torchrl_losers], ids=["tianshou", "torchrl"])
def test_decided_timing_puts_no_losers_reward_on_its_own_transition(losers) -> None:
    """The default timing, as these libraries read it: the game's last move pays the loser on the winner's row."""
    played, own, _ = losers("decided", CONTRAST_GAMES)
    assert (played, own) == (CONTRAST_GAMES, 0)
