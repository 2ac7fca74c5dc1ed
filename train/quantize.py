"""Add an int8 copy to value networks, measured against the network it copies, for the search's leaves.

    python -m train.quantize agents/pretrained/value_dead_last_4p [more directories] [--games 1000]

A search spends about a third of a simulation in the value network (4-player
dead_last, ``guided``), and on one CPU core its float matrix products are
compute-bound. ONNX Runtime's dynamic quantization stores the weights as int8
and quantizes each batch's activations on the fly: about 3.5 times faster a
position (62 against 18 us at a batch of 8 for the [1024, 1024, 512] network).
Each copy is measured before it is kept: both networks score the same fresh
positions (``--games`` games of the bot the network learnt from, at every table
of its card, seeds no training run uses), and the card's ``model.int8`` records
the file, its sha256 and both held-out R^2. ``agents.value_net`` loads the copy
for ``precision="int8"`` (``guided:precision=int8``); the network as trained
stays ``value.onnx``, unchanged. Needs the ``export`` and ``runtime`` extras
(onnx, onnxruntime).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

from agents.value_net import PRECISIONS, VALUE_CARD, VALUE_MODEL, VALUE_MODEL_INT8, ValueNet, resolve_value_dir
from train.value import play_games, r_squared

MEASURE_SEEDS = 10**9  # the fresh games' seeds start here; a training run's are seed * 1_000_000 + i
METHOD = "onnxruntime dynamic quantization: int8 weights per tensor, activations quantized per batch"


def measure(net: ValueNet, data: dict[str, np.ndarray], players: list[int]) -> float:
    """``net``'s R^2 on ``data``: every position's slots of its own table's seats."""
    predicted = net.run(data["features"].astype(np.float32))
    seats = np.arange(predicted.shape[1])[None, :] < np.asarray(players)[:, None]
    return r_squared(predicted[seats], data["targets"][seats])


def quantize(directory: str | Path, games: int = 1000, positions: int = 8) -> dict[str, Any]:
    """Write ``value_int8.onnx`` beside the network's ``value.onnx`` and list it on its card; the card's new
    ``model.int8`` entry (file, sha256, how it was made and both networks' R^2 on the same fresh positions)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    directory = resolve_value_dir(directory)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to pre-process a graph for static quantization is not for this one
    try:
        quantize_dynamic(directory / VALUE_MODEL, directory / VALUE_MODEL_INT8, weight_type=QuantType.QInt8)
    finally:
        root.setLevel(level)
    card = json.loads((directory / VALUE_CARD).read_text(encoding="utf-8"))
    bot = card.get("training", {}).get("bot", "heuristic")
    parts, players = [], []
    for rules, counts in card["tables"].items():
        for count in counts:
            seeds = list(range(MEASURE_SEEDS, MEASURE_SEEDS + games))
            parts.append(play_games(rules, count, bot, seeds, positions))
            players += [count] * len(parts[-1]["targets"])
    data = {key: np.concatenate([part[key] for part in parts]) for key in ("features", "targets")}
    entry = {
        "file": VALUE_MODEL_INT8,
        "sha256": hashlib.sha256((directory / VALUE_MODEL_INT8).read_bytes()).hexdigest(),
        "method": METHOD,
        "measured_on": {"bot": bot, "games_per_table": games, "positions": len(players)},
    }
    card["model"]["int8"] = entry  # listed first, so that ValueNet loads the copy (it checks the sha256)
    (directory / VALUE_CARD).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    for precision in PRECISIONS:
        entry[f"r2_{precision}"] = round(measure(ValueNet(directory, precision=precision), data, players), 4)
    (directory / VALUE_CARD).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return entry


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("directories", nargs="+", help="value network directories (value.json + value.onnx)")
    parser.add_argument("--games", type=int, default=1000, help="fresh games per table for the R^2 of both")
    parser.add_argument("--positions", type=int, default=8, help="positions kept per game")
    args = parser.parse_args(argv)
    if args.games < 1 or args.positions < 1:
        parser.error(f"--games and --positions must be at least 1, got {args.games} and {args.positions}")
    for directory in args.directories:
        entry = quantize(directory, args.games, args.positions)
        print(f"{directory}: int8 copy R^2 {entry['r2_int8']} against {entry['r2_fp32']} "
              f"({entry['measured_on']['positions']} positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
