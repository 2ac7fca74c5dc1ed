"""What seeing every card is worth to a trained policy: a `privileged_actor` run against an ordinary one.

A training run with ``privileged_actor: true`` (train/config.py) learns a policy that reads the full state
(every hand, face-down card and the draw pile) besides the seat's observation. No bot can play it, because the
harness gives a bot only its seat's view, so this script plays the two checkpoints itself: on the same deals,
each checkpoint's most likely move in one seat (``seed % players``), the other seats ``--opponent``, and prints
each one's mean placement score and the difference, paired by deal, with 95% intervals.

    shithead train --config vs_heuristic --override privileged_critic=true --override total_timesteps=3000000 \\
        --override eval_every=0 --override final_eval_games=0                       # the ordinary run
    shithead train --config vs_heuristic --override privileged_critic=true --override privileged_actor=true \\
        --override total_timesteps=3000000 --override eval_every=0 --override final_eval_games=0
    python benchmarks/information_value.py --public RUN/checkpoints/last.zip \\
        --privileged RUN2/checkpoints/last.zip --games 8000 --workers 2

Both checkpoints are fed the privileged observation (an ordinary privileged-critic policy reads only its public
cells of it), so they must come from runs with ``privileged_critic: true``.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def play(seeds: list[int], checkpoints: list[str], rules: str, players: int, opponent: str,
         max_decisions: int) -> np.ndarray:
    """(len(checkpoints), len(seeds)) placement scores of each checkpoint's seat on each deal."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents.base import make_bot
    from shithead_env import Action, Game, action_mask, encode_observation
    from shithead_env.full_state import encode_full_state
    from shithead_env.scoring import final_scores
    from train.policy_bot import actor_logits

    torch.set_num_threads(1)
    others = make_bot(opponent)
    scores = np.zeros((len(checkpoints), len(seeds)))
    for i, path in enumerate(checkpoints):
        policy = MaskablePPO.load(path, device="cpu").policy
        version = public_encoding(policy)
        for j, seed in enumerate(seeds):
            rng = np.random.default_rng(seed)
            game = Game.new(rules, players, seed=seed, max_decisions=max_decisions)
            seat = seed % players
            while not game.is_over:
                if game.current != seat:
                    game.step(others.act_game(game, game.current, rng))
                    continue
                observation = np.concatenate([encode_observation(game, seat, version), encode_full_state(game, seat)])
                game.step(Action.from_index(int(np.argmax(actor_logits(policy, observation, action_mask(game, seat))))))
            scores[i, j] = final_scores(game)[seat]
    return scores


def public_encoding(policy: object) -> int:
    """The encoding version of the seat's observation in a privileged run's input (the full state follows it)."""
    from shithead_env import encoding_for_size
    from shithead_env.full_state import FULL_STATE_SIZE

    public = getattr(policy.mlp_extractor, "public_dim", None)  # an ordinary privileged-critic policy
    return encoding_for_size(public or policy.observation_space.shape[0] - FULL_STATE_SIZE).version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--public", required=True, help="a checkpoint of a run with privileged_critic: true")
    parser.add_argument("--privileged", required=True, help="a checkpoint of a run with privileged_actor: true")
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--games", type=int, default=2000, help="deals, one game each")
    parser.add_argument("--seed", type=int, default=500000, help="the first deal's seed")
    parser.add_argument("--max-decisions", type=int, default=600)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()

    seeds = list(range(args.seed, args.seed + args.games))
    checkpoints = [args.public, args.privileged]
    with ProcessPoolExecutor(args.workers) as pool:
        parts = list(pool.map(play, [seeds[i:: args.workers] for i in range(args.workers)],
                              *([x] * args.workers for x in (checkpoints, args.rules, args.players, args.opponent,
                                                             args.max_decisions))))
    scores = np.concatenate(parts, axis=1)

    def line(name: str, values: np.ndarray) -> str:
        half = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
        return f"| {name} | {values.mean():+.3f} [{values.mean() - half:+.3f}, {values.mean() + half:+.3f}] |"

    print(f"| {args.games} deals, {args.rules} {args.players} players, against {args.opponent} | score [95%] |")
    print("|---|---|")
    print(line("reads the seat's observation", scores[0]))
    print(line("reads every card too", scores[1]))
    print(line("difference, paired by deal", scores[1] - scores[0]))


if __name__ == "__main__":
    main()
