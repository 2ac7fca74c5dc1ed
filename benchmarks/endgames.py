"""Arms of one bot on the same endgames: positions with few seats left, each played by the arm from every one of
them against ``--opponent`` in the others (a benchmark).

    python benchmarks/endgames.py --rules dead_last --players 4 --seats 2 --positions 200 --workers 2 \\
        --opponent "ismcts:sims=600" --arm "guided:opponents=heuristic" --arm "guided:opponents=heuristic,endgame=2"

A lever that acts only once few seats are left (``endgame=2``) shows in a full game's score only through
the games that reach such an endgame with the bot still in it (about half of them at four players), and there it
drowns in the noise of every other phase. Here each position is a deal played by ``--deal-bot`` at every seat
(``heuristic``: cheap) until only ``--seats`` seats hold cards; each arm plays it once from each of those seats, the
others played by copies of ``--opponent``. A position's mean over its seats cancels which seat holds the better
cards, and the arms are paired by position.

Prints one Markdown row per arm: score [95%] (``final_scores``: at four players a two-seat endgame is worth -1/3
won and -1 lost, -2/3 when the decision cap splits it), difference from the first arm paired by position, win rate
(first safe of the seats left), milliseconds per decision and games at the cap. Each arm's games are kept in
``--cache``, so a longer run plays only the positions it lacks and ``--cached`` reports without playing.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents import make_bot
from agents.base import Bot, require_coverage
from agents.bench.report import format_interval
from agents.compare import keyed_spec, line_key, read_records, write_records
from agents.tournament import deal_seed, interval
from shithead_env import Action, Game, load_rules
from shithead_env.scoring import final_scores

SAVE_EVERY = 60.0  # seconds between writes of an arm's finished positions


@dataclass(frozen=True)
class Endgames:
    """The positions and the field: everything an arm's games depend on besides the arm."""

    rules: str = "dead_last"
    players: int = 4
    seats: int = 2
    opponent: str = "heuristic"
    deal_bot: str = "heuristic"
    seed: int = 2026
    max_decisions: int | None = 600

    def __post_init__(self) -> None:
        if not 2 <= self.seats < self.players:
            raise ValueError(f"--seats must be 2..{self.players - 1} at {self.players} players, got {self.seats}")


def position(setup: Endgames, index: int, dealer: Bot) -> Game | None:
    """Deal ``index`` played by ``dealer`` at every seat until only ``setup.seats`` seats hold cards (None: the
    decision cap ended it first)."""
    game = Game.new(setup.rules, setup.players, seed=deal_seed(setup.seed, index), max_decisions=setup.max_decisions)
    rng = np.random.default_rng([setup.seed, index])
    game.play_until((), lambda seat: lone_move(game) or dealer.act_game(game, seat, rng),
                    until=lambda: sum(game.active) <= setup.seats)
    return None if game.is_over else game


def lone_move(game: Game) -> Action | None:
    """The move of a seat that has only one (played without asking its bot), else None."""
    legal = game.legal_actions()
    return legal[0] if len(legal) == 1 else None


def play(setup: Endgames, arm: Bot, opponent: Bot, dealer: Bot, index: int) -> list[dict]:
    """The arm's games of position ``index``, one from each seat still holding cards (none if it has no position)."""
    start = position(setup, index, dealer)
    if start is None:
        return []
    return [play_from(setup, start, index, seat, arm, opponent) for seat in range(setup.players) if start.active[seat]]


def play_from(setup: Endgames, start: Game, index: int, seat: int, arm: Bot, opponent: Bot) -> dict:
    """One game of the position: the arm in ``seat``, ``opponent`` in every other seat still holding cards."""
    game = start.copy()
    rngs = [np.random.default_rng([setup.seed, index, seat, s]) for s in range(setup.players)]
    decisions, seconds = 0, 0.0

    def move(now: int) -> Action:
        nonlocal decisions, seconds
        if now != seat:
            return lone_move(game) or opponent.act_game(game, now, rngs[now])
        clock = time.perf_counter()
        action = arm.act_game(game, now, rngs[now])  # the arm decides even a lone move: it is timed per decision
        seconds += time.perf_counter() - clock
        decisions += 1
        return action

    game.play_until((), move)
    left = [s for s in game.finish_order if start.active[s]]
    return {
        "position": index, "seat": seat, "score": final_scores(game)[seat], "first": bool(left and left[0] == seat),
        "truncated": game.truncated, "decisions": decisions, "seconds": seconds,
    }


_worker: tuple[Endgames, Bot, Bot, Bot] | None = None


def _init(setup: Endgames, arm: str) -> None:
    global _worker
    _worker = (setup, make_bot(arm), make_bot(setup.opponent), make_bot(setup.deal_bot))


def _play(index: int) -> list[dict]:
    assert _worker is not None
    return play(*_worker, index)


def cache_name(setup: Endgames, arm: str) -> str:
    """An arm's cache file name: ``endgames-`` and the key of the setup, the arm and what the three bots play with
    (compare_bots' ``line_key``)."""
    specs = (arm, setup.opponent, setup.deal_bot)
    field = asdict(setup) | {"opponent": keyed_spec(setup.opponent), "deal_bot": keyed_spec(setup.deal_bot)}
    return "endgames-" + line_key((field, keyed_spec(arm)), specs, list(map(make_bot, specs)), setup.rules,
                                  setup.players)


def arm_positions(setup: Endgames, arm: str, positions: int, workers: int, cache: Path, run: bool = True
                  ) -> dict[int, list[dict]]:
    """The arm's games by position: those in ``cache``, then (with ``run``) the first ``positions`` it lacks (a deal
    that the decision cap ends before it reaches a position has none)."""
    path = cache / f"{cache_name(setup, arm)}.json"
    played: dict[int, list[dict]] = {}
    for record in read_records(path):
        played.setdefault(record["position"], []).append(record)
    missing = [i for i in range(positions) if i not in played] if run else []
    line = {"script": "endgames", "setup": asdict(setup), "arm": arm}

    def save() -> None:
        write_records(path, line, [r for i in sorted(played) for r in played[i]])

    if missing:
        saved = time.monotonic()
        with (multiprocessing.get_context().Pool(workers, _init, (setup, arm)) as pool,
              tqdm(total=len(missing), unit="position", desc=arm) as bar):
            for index, records in zip(missing, pool.imap(_play, missing), strict=True):
                played[index] = records
                bar.update()
                if time.monotonic() - saved > SAVE_EVERY:
                    save()
                    saved = time.monotonic()
        save()
    return {i: played[i] for i in range(positions) if played.get(i)}


def table(setup: Endgames, arms: dict[str, dict[int, list[dict]]]) -> str:
    """The Markdown table of the arms (the first the reference) over the positions every arm has played."""
    common = sorted(set.intersection(*(set(by_position) for by_position in arms.values())))
    if not common:
        raise SystemExit("endgames: no position is in --cache for every arm yet")
    rows, reference = [], None
    for spec, by_position in arms.items():
        records = [r for i in common for r in by_position[i]]
        scores = np.array([np.mean([r["score"] for r in by_position[i]]) for i in common])
        reference = scores if reference is None else reference
        ms = 1000 * sum(r["seconds"] for r in records) / max(1, sum(r["decisions"] for r in records))
        rows.append(
            f"| `{spec}` | {format_interval(vars(interval(scores)))} | "
            + ("reference" if not rows else format_interval(vars(interval(scores - reference))))
            + f" | {np.mean([r['first'] for r in records]):.3f} | {ms:.1f} | {sum(r['truncated'] for r in records)} |"
        )
    return (
        f"\n{setup.rules}, {setup.players} players, {len(common)} positions with {setup.seats} seats left "
        f"(dealt by `{setup.deal_bot}`), each arm in every one of them against `{setup.opponent}` "
        f"(seed {setup.seed}" + (f", capped at {setup.max_decisions} decisions" if setup.max_decisions else "") + ")\n"
        "\n| arm | score [95%] | minus the first arm, paired by position | win rate | ms/decision | games at the cap |"
        "\n|---|---|---|---|---|---|\n" + "\n".join(rows)
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arm", action="append", required=True, help="a bot spec; the first is the reference")
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seats", type=int, default=2, help="seats still holding cards at each position")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--deal-bot", default="heuristic", help="plays every seat up to the position")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-decisions", type=int, default=600, help="the game's cap, counted from its first move "
                        "(shithead compare's lines use 600)")
    parser.add_argument("--cache", default="runs/endgames", help="each arm's games are kept here")
    parser.add_argument("--cached", action="store_true", help="play nothing: report the positions every arm has")
    args = parser.parse_args(argv)
    try:
        setup = Endgames(args.rules, args.players, args.seats, args.opponent, args.deal_bot, args.seed,
                         args.max_decisions)
        rules = load_rules(setup.rules)
        rules.check_players(setup.players)
        for spec in (*args.arm, setup.opponent, setup.deal_bot):  # a bad spec fails here, not in a worker
            require_coverage(make_bot(spec), rules, setup.players)
        arms = {arm: arm_positions(setup, arm, args.positions, args.workers, Path(args.cache), not args.cached)
                for arm in args.arm}
    except ValueError as error:
        sys.exit(f"endgames: {error}")
    print(table(setup, arms))


if __name__ == "__main__":
    main()
