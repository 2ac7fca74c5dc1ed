"""Ship a checkpoint: a slim policy, its ONNX export and card, and its evaluation at every table it was made for.

The Adam moments double a checkpoint's size and are only needed to keep
training; a released policy drops them (``MaskablePPO.load`` still reads it,
and training from it starts with fresh moments).

    shithead release runs/<run>/checkpoints/last.zip agents/pretrained/generalist \
        --tables dead_last:2,3,4,5 pub:2,3,4 --baselines heuristic --games 2000

writes into the directory ``policy.zip`` (slim), ``model.onnx`` and ``bot.json``
(``train.export``), then plays the exported model (``model:<dir>``, what users
get) at every table with the harness and writes ``final_eval.md`` /
``final_eval.json``. The card then covers exactly the tables where the whole 95%
interval of its score is above 0 against every baseline; its ``evaluation``
holds the figures of every table played, the ones left out included.
``--keep-model`` re-evaluates a model already shipped in the directory (after a
change of the heuristic, say): no export, the card keeps its training summary.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.onnx_bot import CARD_FILE, CARD_FORMAT


def slim_copy(checkpoint: str | Path, out: str | Path) -> Path:
    """Write ``checkpoint`` to ``out`` without the optimizer state; returns ``out``."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(checkpoint, device="cpu")
    model.policy.optimizer.state.clear()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return out


def covered_tables(results: list) -> dict[str, list[int]]:
    """preset -> player counts where the interval is above 0 against every opponent played (``EvalResult`` list)."""
    passed: dict[tuple[str, int], bool] = {}
    for r in results:
        passed[(r.rules, r.players)] = passed.get((r.rules, r.players), True) and r.above_zero
    tables: dict[str, list[int]] = {}
    for (rules, players), ok in passed.items():
        if ok:
            tables.setdefault(rules, []).append(players)
    return tables


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agents.arguments import renamed, seat_list

    parser.add_argument("checkpoint", help="a MaskablePPO .zip (with --keep-model: DIR's policy.zip)")
    parser.add_argument("directory", metavar="DIR", help="where policy.zip, model.onnx, bot.json and final_eval.* go")
    parser.add_argument("--tables", nargs="+", default=["dead_last:4"], metavar="PRESET:N[,N...]",
                        help="the tables to evaluate at; the card keeps those it passes")
    parser.add_argument("--baselines", type=seat_list, default="heuristic", metavar="SPECS",
                        help="bots separated by ';': one match against each, in every other seat")
    renamed(parser, "--opponents", "--baselines (specs separated by ';', one match against each)")
    parser.add_argument("--games", type=int, default=2000, help="games per table and baseline (whole deals)")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals and of the bots' randomness")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--name", default=None, help="the bot's name (default: DIR's name)")
    parser.add_argument("--note", default="", help="a line about the run (config, steps, wall time)")
    parser.add_argument("--keep-model", action="store_true",
                        help="evaluate the model already in DIR (CHECKPOINT: its policy.zip); no export")


def run(args: argparse.Namespace) -> int:
    """Slim, export and evaluate a checkpoint into DIR; the card covers the tables it passed."""
    from train.config import parse_tables
    from train.evaluate import evaluate_tables, results_table, write_final
    from train.export import coverage_fields, export, run_metadata

    tables = parse_tables(args.tables)
    if not Path(args.checkpoint).is_file():
        raise ValueError(f"{args.checkpoint}: no such checkpoint file (a MaskablePPO .zip)")
    directory = Path(args.directory)
    if args.keep_model:
        policy = Path(args.checkpoint)
    else:
        policy = slim_copy(args.checkpoint, directory / "policy.zip")
        trained: dict[str, list[int]] = {}
        for rules, players in tables:
            trained.setdefault(rules, []).append(players)
        export(policy, directory, name=args.name, tables=trained)
    results = evaluate_tables(f"model:{directory}", tables, list(args.baselines), args.games,
                              seed=args.seed, workers=args.workers, progress=True)
    title = f"{directory.name}: the exported model in one seat, the baseline in every other, seed {args.seed}"
    if args.note:
        title += f"\n\n{args.note}"
    write_final(directory, policy, results, title, seed=args.seed, source=str(args.checkpoint))
    covered = covered_tables(results)
    if not covered:
        raise ValueError(f"{args.checkpoint}: the interval is above 0 at no table; nothing to ship")
    card_path = directory / CARD_FILE
    card = json.loads(card_path.read_text(encoding="utf-8"))
    card.update(coverage_fields(covered), card_format=CARD_FORMAT)
    training, card["evaluation"] = run_metadata(policy)  # now with the source run and this evaluation
    if not args.keep_model:
        card["training"] = training
    card_path.write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    print(results_table(results))
    left_out = [f"{r}/{n}" for r, n in tables if n not in covered.get(r, [])]
    print(f"{card_path}: covers {', '.join(f'{r}/{n}' for r, ns in covered.items() for n in ns)}"
          + (f"; left out (interval not above 0): {', '.join(left_out)}" if left_out else ""))
    print(f"{policy}: {policy.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit("python -m train.release is now: shithead release (shithead release --help)")
