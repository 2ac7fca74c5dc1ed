"""Does each shipped form of a network play as the network as trained? (a benchmark; results in a file)

    python benchmarks/check_shipped_forms.py [--networks value_pub_2p,...] [--positions 20000]
        [--guided-positions 1000] [--sims 100]
    python benchmarks/check_shipped_forms.py --table   # the recorded results as Markdown (docs/results.md)

For every value network's shipped form (``int8w`` or ``fp16w``, ``train.shipped_forms``):

- **Outputs.** Both forms score the same ``--positions`` positions of seeded
  ``heuristic`` games of each table the network covers (the training games'
  noise, seeds from 3e9: no training or int8 run uses them); reported: the
  largest difference of a seat's score, and R^2 of the shipped form's scores
  against the original's (seat slots of the table only). The shipped form
  passes at R^2 > 0.999.
- **Moves.** ``guided:sims=S`` (default opponents, halving root) with each
  form decides each of ``--guided-positions`` positions (positions of other
  seeded ``heuristic`` games), each decision from the same seeded generator;
  reported: the share of positions where both chose the same move. Passes at
  99% or more. The guided budget is ``--sims`` (100 by default, a third of
  level 5's 300, so that 29 tables fit in an hour on one core; a figure at
  another budget says so in the results).

For every policy whose shipped ``model.onnx`` is made from its export
(``model_export.onnx``): the export and the shipped form play ``--deals``
paired deals (spread over the card's tables, the policy in seat ``deal %
players``, ``heuristic`` in the others, each deal once with each form);
reported: the score difference's 95% interval over deals (passes when it
holds 0), and, on the first ``--positions`` positions the policy decided,
the share where both forms choose the same action (passes at 99.5%) and the
largest difference of a legal action's logit. The results go to
``benchmarks/results/shipped_forms.json`` (one entry per network, written as
each finishes, so a run can be split with ``--networks``); ``python -m
agents.registry_build`` copies them into the model registry.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tqdm import tqdm

from agents import make_bot
from agents.files import write_whole
from agents.guided import GuidedBot
from agents.onnx_bot import OnnxBot, card_tables, load_card, onnx_session
from agents.registry import AGREEMENT_RESULTS, load_registry
from agents.tournament import TournamentConfig, interval, play_game
from agents.value_net import ValueNet
from shithead_env import Game, Knowledge, legal_mask
from train.value import play_games

SEEDS = 3 * 10**9  # the outputs' games start here, the guided positions' games at SEEDS + GUIDED_OFFSET
GUIDED_OFFSET = 10**8
POSITIONS_PER_GAME = 24
GUIDED_PER_GAME = 4
R2_MIN, SAME_MOVE_MIN, SAME_ACTION_MIN = 0.999, 0.99, 0.995
ORIGINAL, SHIPPED = "fp32", "shipped"


def output_positions(tables: dict[str, list[int]], count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` positions' features, spread over ``tables``, and each one's player count."""
    pairs = [(rules, players) for rules, counts in tables.items() for players in counts]
    features, players = [], []
    for k, (rules, n) in enumerate(pairs):
        want = count // len(pairs) + (k < count % len(pairs))
        have, seed = 0, SEEDS + k * 10**6
        while have < want:
            games = max(1, (want - have) // POSITIONS_PER_GAME + 1)
            data = play_games(rules, n, "heuristic", list(range(seed, seed + games)), POSITIONS_PER_GAME)
            seed += games
            rows = data["features"][: want - have].astype(np.float32)
            features.append(rows)
            players += [n] * len(rows)
            have += len(rows)
    return np.concatenate(features), np.asarray(players)


def guided_positions(tables: dict[str, list[int]], count: int) -> list[Game]:
    """``count`` live games, ``GUIDED_PER_GAME`` decisions of each seeded ``heuristic`` game (evenly spaced),
    spread over ``tables``."""
    from agents import make_bot

    bot = make_bot("heuristic")
    pairs = [(rules, players) for rules, counts in tables.items() for players in counts]
    games: list[Game] = []
    for k, (rules, n) in enumerate(pairs):
        want = count // len(pairs) + (k < count % len(pairs))
        seed = SEEDS + GUIDED_OFFSET + k * 10**6
        while want > 0:
            game, rng, line = Game.new(rules, n, seed=seed), np.random.default_rng(seed), []
            while not game.is_over:
                line.append(game.copy())
                game.step(bot.act_game(game, game.current, rng))
            step = max(1, len(line) // (GUIDED_PER_GAME + 1))
            kept = [p for p in line[step::step] if len(p.legal_actions()) > 1][:GUIDED_PER_GAME][:want]
            games += kept
            want -= len(kept)
            seed += 1
    return games


def check_value(directory: Path, positions: int, guided: int, sims: int) -> dict:
    """Both measures (module doc) for one value network."""
    original, shipped = ValueNet(directory, precision=ORIGINAL), ValueNet(directory, precision=SHIPPED)
    start = time.perf_counter()
    result: dict = {"form": shipped.precision, "against": ORIGINAL, "sha256": shipped.sha256}
    if positions:
        features, players = output_positions(original.tables, positions)
        seats = np.arange(original.run(features[:1]).shape[1])[None, :] < players[:, None]
        a, b = original.run(features)[seats], shipped.run(features)[seats]
        r2 = 1.0 - float(((a - b) ** 2).sum() / ((a - a.mean()) ** 2).sum())
        result["outputs"] = {"positions": len(features), "max_abs_difference": round(float(np.abs(a - b).max()), 4),
                             "r2": round(r2, 6), "passes": r2 > R2_MIN}
    if guided:
        same = []
        bots = [GuidedBot(sims=sims, value=str(directory), precision=p) for p in (ORIGINAL, SHIPPED)]
        for i, game in enumerate(tqdm(guided_positions(original.tables, guided), desc=directory.name, leave=False)):
            moves = [bot.act_game(game.copy(), game.current, np.random.default_rng([i, 68])) for bot in bots]
            same.append(moves[0] == moves[1])
        share = float(np.mean(same))
        result["guided"] = {"spec": f"guided:sims={sims}", "positions": len(same), "same_move": int(sum(same)),
                            "share": round(share, 4), "passes": share >= SAME_MOVE_MIN}
    result["seconds"] = round(time.perf_counter() - start, 1)
    return result


class _Recording(OnnxBot):
    """An ``OnnxBot`` that keeps every position it is asked about (for ``check_policy``)."""

    seen: list[Knowledge]

    def policies(self, knowledge, rng):  # type: ignore[no-untyped-def]
        self.seen.extend(knowledge)
        return super().policies(knowledge, rng)


def check_policy(directory: Path, deals: int, positions: int) -> dict:
    """Both measures (module doc) for one policy: ``deals`` paired deals spread over its card's tables, the
    original in seat ``deal % players`` against ``heuristic`` in the others, each deal played by each form."""
    card = load_card(directory)
    export = directory / card["model"]["export"]["file"]
    shipped = _Recording(str(directory))
    original = _Recording(str(directory))
    original.session = onnx_session(export, 1, card["model"]["export"]["sha256"])
    shipped.seen, original.seen = [], []
    tables = [(rules, n) for rules, counts in card_tables(card).items() for n in counts]
    start, differences = time.perf_counter(), []
    heuristic = make_bot("heuristic")
    for deal in tqdm(range(deals), desc=directory.name, leave=False):
        rules, n = tables[deal % len(tables)]
        config = TournamentConfig(rules, ("model",) + ("heuristic",) * (n - 1), n, seed=SEEDS)
        scores = [play_game(config, [bot] + [heuristic] * (n - 1), deal, deal % n).scores[0]
                  for bot in (original, shipped)]
        differences.append(scores[1] - scores[0])
    seen = original.seen[:positions]
    observations = np.stack([original.encoding.encode(k) for k in seen])
    masks = np.stack([legal_mask(k) for k in seen])
    (logits_a, actions_a), (logits_b, actions_b) = original.run(observations, masks), shipped.run(observations, masks)
    legal = masks.astype(bool)
    paired = interval(np.asarray(differences))
    same = float(np.mean(actions_a == actions_b))
    return {
        "form": card["model"].get("precision", "fp32"), "against": "export", "sha256": card["model"]["sha256"],
        "actions": {"positions": len(seen), "same_action": int(np.sum(actions_a == actions_b)),
                    "share": round(same, 6),
                    "max_abs_logit_difference": float(np.abs(logits_a - logits_b)[legal].max()),
                    "passes": same >= SAME_ACTION_MIN},
        "paired": {"deals": deals, "opponent": "heuristic", "tables": [f"{r}:{n}" for r, n in tables],
                   "score_difference": round(paired.mean, 4), "low": round(paired.low, 4),
                   "high": round(paired.high, 4), "passes": paired.covers(0.0)},
        "seconds": round(time.perf_counter() - start, 1),
    }


def record(path: Path, name: str, entry: dict) -> None:
    """Add ``entry`` to the results file, read again just before, so runs split with ``--networks`` may write it
    in turn; an entry for the same file (sha256) keeps the measures this run skipped."""
    results = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {"networks": {}}
    kept = results["networks"].get(name, {})
    if kept.get("sha256") == entry["sha256"]:
        entry = {**kept, **entry}
    results["networks"][name] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    write_whole(path, json.dumps(results, indent=1, sort_keys=True) + "\n")


def _passes(ok: bool) -> str:
    return "yes" if ok else "**no**"


def markdown_tables(results: dict) -> str:
    """The recorded results (``record``) as two Markdown tables, policies then value networks."""
    networks = results["networks"]
    lines = ["| policy | form | tables | same action | largest logit difference | paired deals | score difference "
             "[95% interval] | equal |", "|---|---|---|---|---|---|---|---|"]
    for name, entry in sorted(networks.items()):
        if "actions" in entry:
            actions, paired = entry["actions"], entry["paired"]
            lines.append(f"| `{name}` | {entry['form']} | {len(paired['tables'])} "
                         f"| {actions['same_action']:,} / {actions['positions']:,} "
                         f"| {actions['max_abs_logit_difference']:.3g} | {paired['deals']:,} "
                         f"| {paired['score_difference']:+.3f} [{paired['low']:+.3f}, {paired['high']:+.3f}] "
                         f"| {_passes(actions['passes'] and paired['passes'])} |")
    lines += ["", "| value network | form | positions | largest score difference | R^2 | guided: same move | equal |",
              "|---|---|---|---|---|---|---|"]
    for name, entry in sorted(networks.items()):
        if "outputs" in entry:
            outputs, guided = entry["outputs"], entry["guided"]
            lines.append(f"| `{name}` | {entry['form']} | {outputs['positions']:,} "
                         f"| {outputs['max_abs_difference']:.4f} | {outputs['r2']:.6f} "
                         f"| {guided['same_move']:,} / {guided['positions']:,} "
                         f"| {_passes(outputs['passes'] and guided['passes'])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", default="", help="comma-separated names, in the order to check them "
                        "(default: every network with a shipped form)")
    parser.add_argument("--positions", type=int, default=20000, help="positions scored by both forms")
    parser.add_argument("--guided-positions", type=int, default=1000, help="positions guided decides with each form")
    parser.add_argument("--sims", type=int, default=100, help="guided's simulations a move")
    parser.add_argument("--deals", type=int, default=2000, help="paired deals a policy's two forms play")
    parser.add_argument("--out", type=Path, default=AGREEMENT_RESULTS)
    parser.add_argument("--table", action="store_true", help="print --out's recorded results as Markdown, run nothing")
    args = parser.parse_args(argv)
    if args.table:
        print(markdown_tables(json.loads(args.out.read_text(encoding="utf-8"))), end="")
        return 0
    if args.positions < 0 or args.guided_positions < 0 or args.sims < 1 or args.deals < 2:
        parser.error("--positions and --guided-positions must be at least 0 (0: skip), --sims at least 1, "
                     "--deals at least 2")
    root = Path(__file__).resolve().parent.parent / "agents" / "pretrained"
    nets = [net for net in load_registry(root)["networks"]
            if net["kind"] == "value" or any(entry["role"] == "original" for entry in net["files"])]
    wanted = set(filter(None, args.networks.split(",")))
    if unknown := wanted - {net["name"] for net in nets}:
        parser.error(f"--networks: no network with a shipped form named {', '.join(sorted(unknown))}")
    command = "python benchmarks/check_shipped_forms.py " + " ".join(sys.argv[1:] if argv is None else argv)
    order = [name for name in args.networks.split(",") if name] or [net["name"] for net in nets]
    by_name = {net["name"]: net for net in nets}
    for name in tqdm(order, desc="networks"):
        net = by_name[name]
        if net["kind"] == "policy":
            entry = check_policy(root / net["directory"], args.deals, args.positions)
        else:
            entry = check_value(root / net["directory"], args.positions, args.guided_positions, args.sims)
        for measure in ("outputs", "guided", "actions", "paired"):
            if measure in entry:
                entry[measure]["command"] = command
        record(args.out, name, entry)
        tqdm.write(f"{net['name']}: {json.dumps(entry)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
