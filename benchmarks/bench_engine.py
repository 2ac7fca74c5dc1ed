"""Engine speed: random games and decisions per second per preset, one core.

Each game picks a uniformly random legal action at every decision, with
``legal_actions()`` called every time. If RLCard is installed, its pure-Python
UNO is timed in the same run with the same loop as a reference (its
observation encoding included, as RLCard always builds it).

    python benchmarks/bench_engine.py [--seconds 5] [--players 4] [--show dead_last]
"""

from __future__ import annotations

import argparse
import random
import time

from shithead_env import PRESETS, Action, Game, load_rules

PASS = Action.pass_()


def time_engine(preset: str, players: int, seconds: float) -> tuple[float, float, float]:
    """(games/s, decisions/s, forced passes per game) of random play, measured for about ``seconds``.

    A forced pass is an interrupt-window decision whose only legal action is
    ``pass``: a seat asked from public information without holding the play.
    """
    rules = load_rules(preset)
    players = min(max(players, rules.min_players), rules.max_players)
    rng = random.Random(0)
    games = decisions = forced = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game.new(rules, players, seed=games)
        while not game.is_over:
            legal = game.legal_actions()
            if len(legal) == 1 and legal[0] is PASS:
                forced += 1
            game.step(legal[rng.randrange(len(legal))])
        games += 1
        decisions += game.decisions
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, forced / games


def time_rlcard_uno(seconds: float) -> float | None:
    """Decisions/s of RLCard's UNO with the same random loop, or None without RLCard."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    rng = random.Random(0)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--show", metavar="PRESET", help="print one sample game as text instead")
    args = parser.parse_args()
    if args.show:
        from shithead_env.cli import main as cli

        cli(["demo", "--rules", args.show, "--players", str(args.players)])
        return
    reference = time_rlcard_uno(args.seconds)
    header = f"{'preset':16} {'games/s':>9} {'decisions/s':>12} {'decisions/game':>15} {'forced passes/game':>19}"
    print(header + ("  vs RLCard UNO" if reference else ""))
    for preset in PRESETS:
        games, decisions, forced = time_engine(preset, args.players, args.seconds)
        ratio = f"  {decisions / reference:5.2f}x" if reference else ""
        print(f"{preset:16} {games:9.1f} {decisions:12,.0f} {decisions / games:15.1f} {forced:19.1f}{ratio}")
    if reference:
        print(f"{'RLCard UNO':16} {'':9} {reference:12,.0f}  1.00x (reference, same loop, same run)")
    else:
        print("(install rlcard to time its UNO as a reference in the same run)")


if __name__ == "__main__":
    main()
