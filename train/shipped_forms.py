"""The forms of the networks the wheel ships, each made from the network as trained and kept beside it.

    python -m train.shipped_forms [--form int8w|fp16w] agents/pretrained/value_dead_last_4p [...]
    python -m train.shipped_forms [--form int8w|fp16w] agents/pretrained/generalist_v2 [...]   # policies

Both kinds start the same way. In the first layer the weights of the inputs
that are always zero where the network plays (seat slots past its tables; the
rules' cells zero at every one of them) are set to zero, and, for a value
network (one table), those of the inputs that hold the table itself (the seats
present, the rules: ``TABLE_CONSTANT_FIELDS``) are folded into its bias and
set to zero (both checked on games of the table): no output changes beyond
float rounding, and the runs of zeros cost the wheel's compression next to
nothing. Then every large weight matrix is stored in one of two forms:

- ``int8w``: int8 in blocks of ``BLOCK`` (32) inputs of one output unit, each
  block with its own float16 scale (symmetric), restored by a few constant
  nodes (Cast, Mul, Reshape, Slice): a third of the file;
- ``fp16w``: float16, restored by a Cast: half of the file, for the networks
  whose ``int8w`` form falls short of the agreement a shipped form must show
  (``benchmarks/check_shipped_forms.py``).

ONNX Runtime folds those constant nodes once when it loads the graph, so the
arithmetic is float32 at the network's speed, and, unlike the dynamic int8
copy (``train.quantize``), a position's value does not depend on its batch.

A value network's card lists its form as ``model.shipped`` (file, sha256,
precision, method), beside the network as trained (``value.onnx``). A policy's
export is kept as ``model_export.onnx`` (``model.export``: file, sha256,
method) and ``model.onnx`` becomes its shipped form (``model.sha256``,
``model.precision``). ``benchmarks/check_shipped_forms.py`` measures how each
form agrees with its original. Needs the ``export`` extra (onnx).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from agents.onnx_bot import CARD_FILE, MODEL_FILE, card_encoding, card_tables, load_card, resolve_model_dir
from agents.registry import sha256_of
from agents.value_net import SHIPPED_FILES, VALUE_CARD, VALUE_MODEL, resolve_value_dir, value_features
from shithead_env import Game
from shithead_env.actions import MAX_SEATS
from shithead_env.encoding import Encoding, get_encoding
from shithead_env.full_state import FIELDS as FULL_STATE_FIELDS
from train.value import write_value_card

# a form -> (how rewrite_weights stores a large weight matrix, in words)
FORMS = {
    "int8w": ("int8", "int8 weights in blocks of 32 inputs, one float16 scale a block, dequantized at load; "
              "float32 arithmetic"),
    "fp16w": ("float16", "float16 weights, cast to float32 at load; float32 arithmetic"),
}
VALUE_FIRST_LAYER = ("in the first layer, absent seats' inputs zeroed and the table's constant inputs folded into the "
                     "bias")
POLICY_FIRST_LAYER = "in the first layer, the weights of inputs zero at every table of the card zeroed"
MODEL_EXPORT = "model_export.onnx"  # a policy's export as written, beside its shipped form
# The observation's cells that hold the table itself (``shithead_env.encodings.layout.fill_rules``: the seats
# present and the rules): the same at every position of one table.
TABLE_CONSTANT_FIELDS = ("seat_present", "rule_powers", "rank_value", "run_burn", "snatch", "face_up_into_hand",
                         "voluntary_pickup", "decks", "jokers_per_deck")
CHECK_SEEDS = 4 * 10**9  # the games that check absent seats read zero: no training or measuring run uses them
CHECK_GAMES = 20
BLOCK = 32  # inputs that share one scale: 32 keeps guided's moves (a scale per output unit did not)
STORES = tuple(store for store, _ in FORMS.values())  # how rewrite_weights stores a large weight matrix
MIN_QUANTIZED = 4096  # weight matrices smaller than this stay float32 (the output layer's few thousand values)


def _blocks(name: str, weights: np.ndarray) -> list[Any]:
    """``weights`` [outputs, inputs] as int8 blocks of ``BLOCK`` inputs with one float16 scale each (symmetric):
    ``{name}.int8`` [outputs, blocks, BLOCK] (the inputs padded with zeros) and ``{name}.scale``
    [outputs, blocks, 1]."""
    from onnx import numpy_helper

    outputs, inputs = weights.shape
    padded = np.zeros((outputs, -(-inputs // BLOCK) * BLOCK), np.float32)
    padded[:, :inputs] = weights
    blocks = padded.reshape(outputs, -1, BLOCK)
    scale = (np.abs(blocks).max(axis=2, keepdims=True) / 127.0).astype(np.float16)
    safe = np.where(scale == 0, 1.0, scale.astype(np.float32))  # an all-zero block: scale 0, values 0
    quantized = np.clip(np.round(blocks / safe), -127, 127).astype(np.int8)
    return [numpy_helper.from_array(quantized, f"{name}.int8"), numpy_helper.from_array(scale, f"{name}.scale")]


def _dequantize_nodes(name: str, shape: tuple[int, int], transpose: bool) -> list[Any]:
    """The nodes that rebuild the float32 weight ``name`` [outputs, inputs] (transposed for a Gemm without transB)
    from ``_blocks``: constants only, which ONNX Runtime folds once when it loads the graph."""
    from onnx import TensorProto, helper

    outputs, inputs = shape
    float_ = TensorProto.FLOAT
    nodes = [
        helper.make_node("Cast", [f"{name}.int8"], [f"{name}.int8f"], to=float_),
        helper.make_node("Cast", [f"{name}.scale"], [f"{name}.scalef"], to=float_),
        helper.make_node("Mul", [f"{name}.int8f", f"{name}.scalef"], [f"{name}.blocks"]),
        helper.make_node("Constant", [], [f"{name}.shape"], value=helper.make_tensor(
            f"{name}.shape", TensorProto.INT64, [2], [outputs, -1])),
        helper.make_node("Reshape", [f"{name}.blocks", f"{name}.shape"], [f"{name}.padded"]),
        helper.make_node("Constant", [], [f"{name}.starts"], value=helper.make_tensor(
            f"{name}.starts", TensorProto.INT64, [1], [0])),
        helper.make_node("Constant", [], [f"{name}.ends"], value=helper.make_tensor(
            f"{name}.ends", TensorProto.INT64, [1], [inputs])),
        helper.make_node("Constant", [], [f"{name}.axes"], value=helper.make_tensor(
            f"{name}.axes", TensorProto.INT64, [1], [1])),
        helper.make_node("Slice", [f"{name}.padded", f"{name}.starts", f"{name}.ends", f"{name}.axes"],
                         [f"{name}.sliced" if transpose else name]),
    ]
    if transpose:
        nodes.append(helper.make_node("Transpose", [f"{name}.sliced"], [name], perm=[1, 0]))
    return nodes


def rewrite_weights(source: Path, target: Path, unread: np.ndarray, constant: dict[int, float] | None = None,
                    store: str = "int8") -> None:
    """Write ``source``'s graph to ``target``. In its first layer the weights of the inputs ``unread`` (always zero
    where the network plays) are set to zero, and those of the inputs ``constant`` (index -> its value at every
    position) folded into the bias and set to zero: they neither widen a scale nor cost bytes once compressed.
    Every Gemm weight of at least ``MIN_QUANTIZED`` values is then stored as ``store``: ``int8`` (blocks, module
    doc) or ``float16`` (restored by a Cast)."""
    if store not in STORES:
        raise ValueError(f"store must be one of {', '.join(STORES)}, got {store!r}")
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    dequantize: list[Any] = []
    gemms = [node for node in graph.node if node.op_type == "Gemm" and node.input[1] in initializers]
    for node in gemms:
        name = node.input[1]
        weights = numpy_helper.to_array(initializers[name]).copy()
        axis = 0 if next((a.i for a in node.attribute if a.name == "transB"), 0) else 1  # the output unit's axis
        if node is gemms[0]:
            by_input = weights.T if axis == 0 else weights  # rows: inputs, columns: output units (a view)
            if constant:
                bias = initializers[node.input[2]]
                folded = numpy_helper.to_array(bias).astype(np.float64)
                folded += np.asarray(list(constant.values())) @ by_input[list(constant)].astype(np.float64)
                graph.initializer.remove(bias)
                graph.initializer.append(numpy_helper.from_array(folded.astype(np.float32), node.input[2]))
                by_input[list(constant)] = 0.0
            by_input[unread] = 0.0
        graph.initializer.remove(initializers[name])
        if weights.size < MIN_QUANTIZED:
            graph.initializer.append(numpy_helper.from_array(weights, name))
            continue
        if store == "float16":
            graph.initializer.append(numpy_helper.from_array(weights.astype(np.float16), f"{name}.fp16"))
            dequantize.append(helper.make_node("Cast", [f"{name}.fp16"], [name], to=TensorProto.FLOAT))
            continue
        by_output = weights if axis == 0 else weights.T  # rows: output units, columns: inputs
        graph.initializer.extend(_blocks(name, by_output))
        dequantize += _dequantize_nodes(name, by_output.shape, transpose=axis == 1)
    nodes = dequantize + list(graph.node)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def absent_seat_cells(shapes: list[tuple[int, ...]], players: int) -> np.ndarray:
    """The indices, in a vector of fields of ``shapes``, of the cells of seat slots ``players`` and above (each
    field whose first axis is the seat slot): zero at a table of ``players`` seats or fewer."""
    indices, offset = [], 0
    for shape in shapes:
        size = math.prod(shape)
        if shape[0] == MAX_SEATS:
            indices.extend(range(offset + players * (size // MAX_SEATS), offset + size))
        offset += size
    return np.asarray(indices, np.int64)


def table_cells(encoding: Encoding) -> np.ndarray:
    """The indices of ``encoding``'s cells in ``TABLE_CONSTANT_FIELDS``: constant at every position of one table."""
    fields = {field.name: field for field in encoding.fields}
    return np.concatenate([np.arange(encoding.offsets[name], encoding.offsets[name] + fields[name].size)
                           for name in TABLE_CONSTANT_FIELDS])


def value_cells(players: int) -> tuple[np.ndarray, np.ndarray]:
    """``value_features``' cells of absent seats at a table of ``players``, and its cells in
    ``TABLE_CONSTANT_FIELDS``."""
    observation = get_encoding(2)
    shapes = [field.shape for field in observation.fields] + [shape for _, shape, _ in FULL_STATE_FIELDS]
    return absent_seat_cells(shapes, players), table_cells(observation)


def table_features(rules: str, players: int, games: int) -> np.ndarray:
    """``value_features`` (float32) at every decision of ``games`` seeded ``heuristic`` games of the table."""
    from agents import make_bot

    bot, rows = make_bot("heuristic"), []
    for seed in range(CHECK_SEEDS, CHECK_SEEDS + games):
        game, rng = Game.new(rules, players, seed=seed), np.random.default_rng(seed)
        while not game.is_over:
            rows.append(value_features(game))
            game.step(bot.act_game(game, game.current, rng))
    return np.stack(rows)


def check_form(form: str) -> None:
    """A one-line ``ValueError`` unless ``form`` is one of ``FORMS``."""
    if form not in FORMS:
        raise ValueError(f"form must be one of {', '.join(FORMS)}, got {form!r}")


def add_shipped_value(directory: str | Path, form: str = "int8w") -> dict[str, str]:
    """Write a value network's shipped ``form`` (``FORMS``) beside it and list it on its card as
    ``model.shipped``, replacing a shipped form it had."""
    check_form(form)
    directory = resolve_value_dir(directory)
    card = json.loads((directory / VALUE_CARD).read_text(encoding="utf-8"))
    tables = [(rules, count) for rules, counts in card["tables"].items() for count in counts]
    if len(tables) != 1:
        raise ValueError(f"{directory}: a shipped form is made for a network of one table, this one has {tables}")
    (rules, players), = tables
    unread, static = value_cells(players)
    features = table_features(rules, players, CHECK_GAMES)
    if np.any(features[:, unread] != 0) or np.any(features[:, static] != features[0, static]):
        raise ValueError(f"{directory}: at {rules} with {players} players the features of absent seats are not zero "
                         "or the table's own are not constant; the encoding changed (train.shipped_forms)")
    constant = {int(i): float(features[0, i]) for i in static if features[0, i] != 0}
    unread = np.union1d(unread, [i for i in static if features[0, i] == 0])
    store, storage = FORMS[form]
    target = directory / SHIPPED_FILES[form]
    rewrite_weights(directory / VALUE_MODEL, target, unread, constant, store)
    for other in set(SHIPPED_FILES.values()) - {target.name}:
        (directory / other).unlink(missing_ok=True)
    entry = {"file": target.name, "sha256": sha256_of(target), "precision": form,
             "method": f"{storage}; {VALUE_FIRST_LAYER}"}
    card["model"]["shipped"] = entry
    write_value_card(directory, card)
    return entry


def add_shipped_policy(directory: str | Path, form: str = "int8w") -> dict[str, str]:
    """Keep a policy's export as ``model_export.onnx`` and write ``model.onnx`` as its ``form`` (``FORMS``): the
    card's ``model.sha256`` becomes the new file's, ``model.precision`` its form and ``model.export`` records the
    export."""
    check_form(form)
    directory = resolve_model_dir(directory)
    card = load_card(directory)
    encoding, tables = card_encoding(card), card_tables(card)
    players = max(n for counts in tables.values() for n in counts)
    static = table_cells(encoding)
    zero_at_every_table = np.all([encoding.encode_game(Game.new(rules, n, seed=0), 0)[static] == 0
                                  for rules, counts in tables.items() for n in counts], axis=0)
    unread = np.union1d(absent_seat_cells([field.shape for field in encoding.fields], players),
                        static[zero_at_every_table])
    export = directory / MODEL_EXPORT
    if not export.is_file():
        (directory / MODEL_FILE).rename(export)
    store, storage = FORMS[form]
    rewrite_weights(export, directory / MODEL_FILE, unread, store=store)
    card["model"]["export"] = {"file": MODEL_EXPORT, "sha256": sha256_of(export),
                               "method": f"{storage}; {POLICY_FIRST_LAYER}"}
    card["model"]["sha256"] = sha256_of(directory / MODEL_FILE)
    card["model"]["precision"] = form
    (directory / CARD_FILE).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return card["model"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directories", nargs="+", help="value network (value.json) or policy (bot.json) directories")
    parser.add_argument("--form", choices=tuple(FORMS), default="int8w",
                        help="the shipped form to write (default: int8w)")
    args = parser.parse_args(argv)
    for directory in args.directories:
        policy = (Path(directory) / CARD_FILE).is_file()
        entry = (add_shipped_policy if policy else add_shipped_value)(directory, args.form)
        print(f"{directory}: {entry['file']} {entry['sha256'][:16]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
