"""RLCard 1.2.0: Deep Monte-Carlo (DMC) self-play on ``shithead_v0.env`` through ``is_pettingzoo_env=True``.

Pins: .venvs/rlcard (scripts/venv.sh: rlcard 1.2.0, torch 2.13.0); run by scripts/examples.sh.
Two RLCard 1.2.0 bugs need a way round (docs/environments.md):

- its buffers store observations as int8, which zeroes the scaled [0, 1]
  fields of the default encoding: ``encoding=1`` (raw counts, up to 108) survives
  the cast but for two fractional fields, ``rank_value`` (fixed by the rules) and
  ``decisions`` (the share of the decision cap used), which it truncates;
- ``DMCTrainer.start`` can hang for good: the frame count is shared by the
  seats' learner threads, so once one seat's thread stops at ``total_frames``
  the single actor can block on that seat's full buffers while another seat's
  thread waits for its batch. Enough buffers (``num_buffers``, 50 here) keep
  the actor from ever blocking in so short a run;
- its actor processes loop forever and are not daemons, so the interpreter
  would wait on them at exit: they are terminated once ``start`` returns.

DMC reads each seat's return through ``last()`` (its value on the seat's final,
dead step), so the default reward timing is right for it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import tempfile
import time

import torch
from rlcard.agents.dmc_agent import DMCTrainer

from shithead_env import shithead_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=320, help="transitions to learn from, all seats together")
    args = parser.parse_args()
    start = time.perf_counter()
    torch.manual_seed(0)
    env = shithead_v0.env(rules="harrogate", num_players=2, encoding=1)
    env.reset(seed=0)  # DMC reads env.agents before its first game
    with tempfile.TemporaryDirectory() as savedir:
        trainer = DMCTrainer(
            env, is_pettingzoo_env=True, savedir=savedir, save_interval=60, num_actors=1, num_threads=1,
            unroll_length=16, batch_size=4, num_buffers=50, total_frames=args.frames,
        )
        trainer.start()
        for actor in multiprocessing.active_children():  # DMC's actors loop forever
            actor.terminate()
            actor.join()
    print(f"DMC trained on {args.frames} frames (all seats)")
    print(f"rlcard_dmc: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
