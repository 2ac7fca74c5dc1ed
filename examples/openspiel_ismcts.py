"""OpenSpiel's Python ISMCTS bot against a uniform random seat on ``python_shithead``.

Pins: the main venv (scripts/venv.sh: open_spiel 2.0.2); run by scripts/examples.sh.
The bot resamples the hidden cards through the game's ``resample_from_infostate``
(the project's determinizer). OpenSpiel 2.0.2 caveats (docs/environments.md): use the
Python ``ismcts.ISMCTSBot``, not ``pyspiel.ISMCTSBot`` (it crashes on a Python
game), and step the game yourself, since ``evaluate_bots`` needs ``restart_at``,
which the Python bot lacks.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import shithead_env.envs.openspiel  # noqa: F401  (registers python_shithead)


def play(game: pyspiel.Game, bot: ismcts.ISMCTSBot, rng: np.random.Generator) -> tuple[list[float], int]:
    """One game, the bot as seat 0: the returns and the bot's number of searches."""
    state = game.new_initial_state()
    searches = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = np.array(state.chance_outcomes()).T
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            searches += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state.returns(), searches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=8, help="ISMCTS simulations per move")
    args = parser.parse_args()
    start = time.perf_counter()
    game = pyspiel.load_game("python_shithead", {"rules": "harrogate", "players": 2, "max_decisions": 300})
    random_state = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, args.simulations, random_state=random_state)
    rng = np.random.default_rng(0)
    for number in range(args.games):
        returns, searches = play(game, bot, rng)
        print(f"game {number + 1}: ISMCTS (seat 0) {returns[0]:+.1f} after {searches} searches")
    print(f"openspiel_ismcts: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
