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
the file, its sha256 and both R^2; a copy more than 0.01 below is not kept
(``train.value.INT8_MAX_R2_LOSS``). ``agents.value_net`` loads the copy
for ``precision="int8"`` (``guided:precision=int8``); the network as trained
stays ``value.onnx``, unchanged. Needs the ``export`` and ``runtime`` extras
(onnx, onnxruntime).
"""

from __future__ import annotations

import argparse

from train.value import quantize


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
