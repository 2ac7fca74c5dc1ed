"""RLCard 1.2.0: Deep Monte-Carlo (DMC) self-play on ``shithead_v0.env``, from RLCard's own DMC parts.

Pins: .venvs/rlcard (scripts/venv.sh: rlcard 1.2.0, torch 2.13.0); run by scripts/examples.sh.
RLCard's ``DMCTrainer.start`` runs DMC as actor processes that feed one learner
thread per seat through shared int8 buffers. Two of its bugs rule it out here
(docs/environments.md): its game loop (``run_game_pettingzoo``) reads only
termination from ``last()``, so on a truncated game (the decision cap) it steps
a dead seat with an action, the actor process dies, and the learner threads
wait for batches for good (CI hung so); and the int8 buffers zero the scaled
fields of the encoding. So this example runs the same algorithm in one process
from RLCard's own pieces, ``DMCModelPettingZoo`` (a Q(s, a) network per seat,
epsilon-greedy), ``create_optimizers`` and ``learn`` (Q(s, a) regressed on the
seat's return, RMSprop), with its game loop corrected (``play_game``).

DMC reads each seat's return through ``last()`` (its value on the seat's final,
dead step), so the default reward timing is right for it.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import time

import numpy as np
import torch
from rlcard.agents.dmc_agent.pettingzoo_model import DMCModelPettingZoo
from rlcard.agents.dmc_agent.trainer import learn
from rlcard.agents.dmc_agent.utils import create_optimizers

from shithead_env import shithead_v0


def play_game(env, agents: dict) -> dict[str, list]:
    """``rlcard.utils.run_game_pettingzoo`` with truncation read: a seat's trajectory alternates (obs, reward,
    ended) and the action taken, None on its dead step, whose reward is the seat's return."""
    env.reset()
    trajectories = collections.defaultdict(list)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        ended = termination or truncation
        action = None if ended else agents[agent].step(obs)
        trajectories[agent] += [(obs, reward, ended), action]
        env.step(action)
    return trajectories


def seat_batch(trajectory: list, num_actions: int) -> dict[str, torch.Tensor] | None:
    """One seat's game (``play_game``) as DMC's ``learn`` takes a batch: (steps, 1, ...) tensors, every step's
    target the seat's return."""
    decisions = [(trajectory[i][0]["observation"], trajectory[i + 1]) for i in range(0, len(trajectory) - 2, 2)]
    if not decisions:
        return None
    steps = len(decisions)
    actions = np.zeros((steps, num_actions), dtype=np.float32)
    actions[np.arange(steps), [action for _, action in decisions]] = 1
    final_return = torch.full((steps, 1), float(trajectory[-2][1]))
    done = torch.zeros((steps, 1), dtype=torch.bool)
    done[-1] = True
    return {
        "state": torch.from_numpy(np.stack([obs for obs, _ in decisions]))[:, None],
        "action": torch.from_numpy(actions)[:, None],
        "target": final_return,
        "episode_return": final_return,
        "done": done,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="self-play games to learn from")
    args = parser.parse_args()
    start = time.perf_counter()
    np.random.seed(0)  # DMC's epsilon-greedy exploration draws from numpy's global generator
    torch.manual_seed(0)
    env = shithead_v0.env(rules="harrogate", num_players=2)
    env.reset(seed=0)  # DMCModelPettingZoo reads env.agents
    model = DMCModelPettingZoo(env, mlp_layers=[128, 128], device="cpu")
    optimizers = create_optimizers(env.num_agents, 1e-4, 0.0, 1e-5, 0.99, model)
    returns = [collections.deque(maxlen=100) for _ in env.possible_agents]
    num_actions = env.action_space(env.possible_agents[0]).n
    frames = 0
    for game in range(args.games):
        trajectories = play_game(env, model.agents)
        losses = []
        for seat, agent in enumerate(env.possible_agents):
            batch = seat_batch(trajectories[agent], num_actions)
            if batch is None:
                continue
            stats = learn(seat, {"cpu": model}, model.get_agent(seat), batch, optimizers[seat], "cpu", 40, returns,
                          contextlib.nullcontext())
            losses.append(stats[f"loss_{seat}"])
            frames += len(batch["target"])
        print(f"game {game + 1}: {frames} frames, loss per seat {', '.join(f'{loss:.3f}' for loss in losses)}")
    print(f"DMC trained on {frames} frames (all seats) from {args.games} games")
    print(f"rlcard_dmc: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
