"""Train a full-state value network (``agents.value_net``) by supervised learning on bot games, and ship it.

    python -m train.value --out agents/pretrained/value_dead_last_4p [--rules dead_last --players 4 --games 16000]

1. **Games.** Seeded games of ``--bot`` (``heuristic``) in every seat; in a
   share of them each seat plays a random legal move with a small probability,
   so the positions cover more than the bot's own line. Each game gives
   ``--positions`` of its decisions, sampled uniformly (reservoir), so a game
   that loops to the decision cap counts no more than any other. A position's
   target is every seat's final placement score of that game (``final_scores``).
2. **Fit.** A ReLU MLP on the features, mean squared error over the table's
   seat slots, Adam, a held-out share of the games (never their positions
   mixed into training) for the figures.
3. **Ship.** ``value.onnx`` (the batch dimension free) and ``value.json`` with
   the recipe and the held-out figures: the share of the outcome's variance
   the network explains (R^2), overall and by game stage; then its int8 copy,
   measured against it on fresh games (``train.quantize``; needs onnx and
   onnxruntime, the ``export`` and ``runtime`` extras).

Everything follows from ``--seed``: the games, the split, the initial weights
and the batches (as far as torch's CPU kernels are deterministic; a fit on a GPU,
``--device cuda``, is faster and repeatable on that GPU, but not bit for bit the
CPU's).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from agents.files import write_whole
from agents.registry import sha256_of
from agents.value_net import (
    FEATURE_SIZE,
    VALUE_CARD,
    VALUE_MODEL,
    VALUE_MODEL_INT8,
    ValueNet,
    resolve_value_dir,
    value_card,
    value_features,
)
from shithead_env import Action, Game
from shithead_env.actions import MAX_SEATS
from shithead_env.scoring import final_scores

NOISE_EPSILONS = (0.0, 0.0, 0.02, 0.1)  # per game: the chance a seat's move is a random legal one
SOURCE_BOT, SOURCE_EXPERT = 0, 1  # where a position comes from: the bot's games, an expert run's self-play
EXPERT_GAME_IDS = 10**12  # an expert game's id is this plus its seed: never a bot game's
INT8_SEEDS = 10**9  # the int8 copy's measuring games start here; a training run's are seed * 1_000_000 + i
INT8_METHOD = "onnxruntime dynamic quantization: int8 weights per tensor, activations quantized per batch"
INT8_MAX_R2_LOSS = 0.01  # a copy that explains less of the outcome than this below its network is not kept


def _option(default: object, help: str) -> Any:
    """A recipe field with the ``--help`` text its command-line option shows."""
    return field(default=default, metadata={"help": help})


@dataclass
class ValueConfig:
    """The recipe, recorded on the card."""

    rules: str = _option("dead_last", "the preset whose games are played")
    players: int = _option(4, "seats at the table")
    bot: str = _option("heuristic", "the bot spec that plays every seat")
    games: int = _option(16000, "games played")
    positions: int = _option(24, "decisions kept per game, sampled uniformly")
    holdout: float = _option(0.05, "share of the games held out for the figures")
    hidden: list[int] = field(default_factory=lambda: [512, 256], metadata={"help": "hidden layer sizes"})
    epochs: int = _option(8, "passes over the training positions")
    batch_size: int = _option(512, "positions per gradient step")
    learning_rate: float = _option(1e-3, "Adam's learning rate")
    seed: int = _option(0, "seeds the games, the split, the weights and the batches")
    workers: int = _option(2, "processes that play the games")
    expert_run: str = _option("", "also the self-play games of this expert-iteration run (train/expert.py)")
    expert_positions: int = _option(60, "positions kept per such game")
    device: str = _option("cpu", "where torch fits the network: cpu, cuda, cuda:1, ...")


def sample_positions(game: Game, choose: Callable[[Game], Action], rng: np.random.Generator,
                     positions: int) -> dict[str, np.ndarray]:
    """Play ``game`` to its end with ``choose``, keeping ``positions`` of its decisions with the same chance each
    (reservoir sampling, so a game that loops to the cap counts no more than another); their features, every
    seat's final score by slot (slot 0 the seat to act) and their stage (the share of the game played)."""
    kept: list[Game] = []
    seen = 0
    while not game.is_over:
        if seen < positions:
            kept.append(game.copy())
        elif (j := int(rng.integers(seen + 1))) < positions:
            kept[j] = game.copy()
        seen += 1
        game.step(choose(game))
    scores = final_scores(game)
    players = game.num_players
    targets = np.zeros((len(kept), MAX_SEATS), np.float32)
    for row, position in enumerate(kept):
        targets[row, :players] = [scores[(position.current + slot) % players] for slot in range(players)]
    return {
        "features": np.array([value_features(p) for p in kept], np.float16).reshape(-1, FEATURE_SIZE),
        "targets": targets,
        "stage": np.array([p.decisions / max(1, game.decisions) for p in kept], np.float32),
    }


def _collect(parts: list[dict[str, np.ndarray]], ids: list[int], source: int) -> dict[str, np.ndarray]:
    """The games' positions in one set: ``game`` (its id, for the held-out split) and ``source`` per position."""
    out = {key: np.concatenate([part[key] for part in parts]) for key in ("features", "targets", "stage")}
    out["game"] = np.concatenate([np.full(len(part["stage"]), i, np.int64) for part, i in zip(parts, ids, strict=True)])
    out["source"] = np.full(len(out["stage"]), source, np.int8)
    return out


def play_games(rules: str, players: int, bot_spec: str, seeds: list[int], positions: int) -> dict[str, np.ndarray]:
    """Features, targets and stage of ``positions`` sampled decisions per game, for the games ``seeds``."""
    from agents import make_bot

    bot = make_bot(bot_spec)
    parts = []
    for seed in seeds:
        rng = np.random.default_rng([seed, 7])
        epsilon = NOISE_EPSILONS[seed % len(NOISE_EPSILONS)]

        def choose(game: Game, rng: np.random.Generator = rng, epsilon: float = epsilon) -> Action:
            legal = game.legal_actions()
            if len(legal) > 1 and rng.random() < epsilon:
                return legal[int(rng.integers(len(legal)))]
            return legal[0] if len(legal) == 1 else bot.act_game(game, game.current, rng)

        parts.append(sample_positions(Game.new(rules, players, seed=seed), choose, rng, positions))
    return _collect(parts, seeds, SOURCE_BOT)


def replay_expert_chunk(path: Path, rules: str, players: int, max_decisions: int | None,
                        positions: int) -> dict[str, np.ndarray]:
    """``positions`` decisions of each self-play game of an expert-iteration chunk, replayed from its moves."""
    chunk = dict(np.load(path))
    moves = iter(chunk["actions"].tolist())
    seeds = chunk["seeds"].tolist()
    parts = [
        sample_positions(Game.new(rules, players, seed=seed, max_decisions=max_decisions),
                         lambda _: Action.from_index(next(moves)), np.random.default_rng([seed, 8]), positions)
        for seed in seeds
    ]  # fmt: skip
    return _collect(parts, [EXPERT_GAME_IDS + seed for seed in seeds], SOURCE_EXPERT)


def expert_positions(run: str | Path, positions: int, workers: int) -> dict[str, np.ndarray]:
    """The positions of every self-play game an expert-iteration run has on disk (train/expert.py): the games
    its search played, the positions the search's leaves meet."""
    from train.config import load_config
    from train.expert import ROUNDS_DIR

    run = Path(run)
    config = load_config(run / "config.yaml")
    paths = sorted((run / ROUNDS_DIR).glob("*/data/chunk_*[0-9].npz"))
    if not paths:
        raise ValueError(f"{run}: no self-play chunks under {ROUNDS_DIR}/*/data")
    args = (config.rules, config.num_players, config.game_cap, positions)
    with ProcessPoolExecutor(workers) as pool:
        parts = list(pool.map(replay_expert_chunk, paths, *([a] * len(paths) for a in args)))
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def generate(config: ValueConfig, progress: bool = True) -> dict[str, np.ndarray]:
    """The positions of ``config.games`` games (seeds ``seed * 1_000_000 + i``), in worker processes."""
    from tqdm import tqdm

    base = config.seed * 1_000_000
    chunks = [list(range(base + i, base + min(i + 200, config.games))) for i in range(0, config.games, 200)]
    parts: list[dict[str, np.ndarray]] = []
    args = (config.rules, config.players, config.bot)
    with ProcessPoolExecutor(config.workers) as pool, tqdm(total=config.games, unit="game", disable=not progress,
                                                           desc="games") as bar:
        futures = [pool.submit(play_games, *args, chunk, config.positions) for chunk in chunks]
        for chunk, future in zip(chunks, futures, strict=True):
            parts.append(future.result())
            bar.update(len(chunk))
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def build_network(hidden: list[int]) -> Any:
    import torch.nn as nn

    layers: list[nn.Module] = []
    width = FEATURE_SIZE
    for size in hidden:
        layers += [nn.Linear(width, size), nn.ReLU()]
        width = size
    layers.append(nn.Linear(width, MAX_SEATS))
    return nn.Sequential(*layers)


def r_squared(predicted: np.ndarray, target: np.ndarray) -> float:
    """The share of ``target``'s variance that ``predicted`` explains."""
    residual = float(((predicted - target) ** 2).sum())
    total = float(((target - target.mean()) ** 2).sum())
    return 1.0 - residual / total if total else 0.0


def fit(config: ValueConfig, data: dict[str, np.ndarray], progress: bool = True) -> tuple[Any, dict[str, Any]]:
    """Train the network; returns it and its held-out figures."""
    import torch
    from tqdm import tqdm

    torch.manual_seed(config.seed)
    rng = np.random.default_rng(config.seed)
    games = np.unique(data["game"])
    held = set(rng.choice(games, max(1, int(len(games) * config.holdout)), replace=False).tolist())
    test = np.isin(data["game"], list(held))
    train_idx, test_idx = np.flatnonzero(~test), np.flatnonzero(test)
    device = torch.device(config.device)
    live = torch.zeros(MAX_SEATS, device=device)
    live[: config.players] = 1.0
    x_all = torch.from_numpy(data["features"]).to(device)
    y_all = torch.from_numpy(data["targets"]).to(device)
    net = build_network(config.hidden).to(device)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate)
    steps = config.epochs * (len(train_idx) // config.batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, config.learning_rate, total_steps=max(1, steps))
    bar = tqdm(total=steps, unit="batch", disable=not progress, desc="fit")
    for _ in range(config.epochs):
        order = rng.permutation(train_idx)
        for start in range(0, len(order) - config.batch_size + 1, config.batch_size):
            batch = torch.from_numpy(order[start : start + config.batch_size]).to(device)
            x, y = x_all[batch].float(), y_all[batch]
            loss = (((net(x) - y) ** 2) * live).sum() / (config.batch_size * config.players)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            bar.update(1)
            bar.set_postfix(loss=f"{loss.item():.4f}", refresh=False)
    bar.close()
    net.eval()
    held_out = torch.from_numpy(test_idx).to(device)
    with torch.no_grad():
        predicted = np.concatenate(
            [net(x_all[held_out[i : i + 4096]].float()).cpu().numpy() for i in range(0, len(test_idx), 4096)]
        )
    net.cpu()
    target = data["targets"][test_idx]
    stage = data["stage"][test_idx]
    p, t = predicted[:, : config.players], target[:, : config.players]
    figures: dict[str, Any] = {
        "held_out_positions": len(test_idx),
        "r2": round(r_squared(p, t), 4),
        "r2_by_stage": {},
        "mse": round(float(((p - t) ** 2).mean()), 4),
    }
    for low, high in ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.01)):
        rows = (stage >= low) & (stage < high)
        figures["r2_by_stage"][f"{low:.2f}-{min(high, 1.0):.2f}"] = round(r_squared(p[rows], t[rows]), 4)
    expert = data["source"][test_idx] == SOURCE_EXPERT
    if expert.any():  # the positions a search's leaves meet, apart
        figures["r2_expert_games"] = round(r_squared(p[expert], t[expert]), 4)
        figures["r2_bot_games"] = round(r_squared(p[~expert], t[~expert]), 4)
    return net, figures


def write_value_card(directory: Path, card: dict[str, Any]) -> None:
    """``value.json`` in ``directory``, written whole (agents.files.write_whole): a search in another process
    may read it while an int8 copy is being listed."""
    write_whole(directory / VALUE_CARD, json.dumps(card, indent=2) + "\n")


def export_value(net: Any, out: Path, config: ValueConfig, figures: dict[str, Any], seconds: float) -> Path:
    """Write ``value.onnx`` and ``value.json`` into ``out``."""
    import warnings

    import torch

    out.mkdir(parents=True, exist_ok=True)
    model_path = out / VALUE_MODEL
    dummy = torch.zeros(1, FEATURE_SIZE)
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the TorchScript exporter needs no onnxscript
        torch.onnx.export(net, (dummy,), str(model_path), input_names=["features"], output_names=["scores"],
                          dynamic_axes={"features": {0: "batch"}, "scores": {0: "batch"}}, opset_version=17,
                          dynamo=False)
    digest = sha256_of(model_path)
    training = {**asdict(config), "seconds": round(seconds)}
    card = value_card(out.resolve().name, {config.rules: [config.players]}, training, figures, digest)
    write_value_card(out, card)
    return out


def table_r_squared(net: ValueNet, data: dict[str, np.ndarray], players: list[int]) -> float:
    """``net``'s R^2 on ``data``: every position's slots of its own table's seats."""
    predicted = net.run(data["features"].astype(np.float32))
    seats = np.arange(predicted.shape[1])[None, :] < np.asarray(players)[:, None]
    return r_squared(predicted[seats], data["targets"][seats])


def quantize(directory: str | Path, games: int = 1000, positions: int = 8) -> dict[str, Any]:
    """Write ``value_int8.onnx`` beside the network's ``value.onnx`` and list it on its card; the card's new
    ``model.int8`` entry (file, sha256, how it was made and both networks' R^2 on the same fresh positions).
    A copy whose R^2 falls more than ``INT8_MAX_R2_LOSS`` below the network's is removed, card and file, and
    refused with both figures."""
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
            seeds = list(range(INT8_SEEDS, INT8_SEEDS + games))
            parts.append(play_games(rules, count, bot, seeds, positions))
            players += [count] * len(parts[-1]["targets"])
    data = {key: np.concatenate([part[key] for part in parts]) for key in ("features", "targets")}
    entry = {
        "file": VALUE_MODEL_INT8,
        "sha256": sha256_of(directory / VALUE_MODEL_INT8),
        "method": INT8_METHOD,
        "measured_on": {"bot": bot, "games_per_table": games, "positions": len(players)},
    }
    card["model"]["int8"] = entry  # listed first, so that ValueNet loads the copy (it checks the sha256)
    write_value_card(directory, card)
    for precision in ("fp32", "int8"):
        entry[f"r2_{precision}"] = round(table_r_squared(ValueNet(directory, precision=precision), data, players), 4)
    if entry["r2_fp32"] - entry["r2_int8"] > INT8_MAX_R2_LOSS:
        del card["model"]["int8"]
        (directory / VALUE_MODEL_INT8).unlink()
    write_value_card(directory, card)
    if "int8" not in card["model"]:
        raise ValueError(f"{directory}: the int8 copy explains R^2 {entry['r2_int8']} of the outcome against the "
                         f"network's {entry['r2_fp32']} (at most {INT8_MAX_R2_LOSS} less is kept); not kept")
    return entry


def device_problem(name: str) -> str:
    """Why torch cannot fit on the device ``name``, or ``""`` where it can."""
    import torch

    try:
        device = torch.device(name)
    except RuntimeError as error:
        return str(error).splitlines()[0]
    if device.type == "cuda" and not torch.cuda.is_available():
        return "torch sees no CUDA device here"
    if device.type == "cuda" and (device.index or 0) >= (count := torch.cuda.device_count()):
        return f"torch sees {count} CUDA device(s) here, numbered from 0"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    defaults = ValueConfig()
    parser.add_argument("--out", required=True, help="the directory to write value.onnx and value.json into")
    for spec in fields(ValueConfig):
        default = getattr(defaults, spec.name)
        kind = {"nargs": "+", "type": int} if spec.name == "hidden" else {"type": type(default)}
        parser.add_argument(f"--{spec.name.replace('_', '-')}", default=default, help=spec.metadata["help"], **kind)
    parser.add_argument("--data", help="an .npz of positions to reuse (written there when it does not exist)")
    args = parser.parse_args(argv)
    config = ValueConfig(**{name: getattr(args, name) for name in asdict(defaults)})
    if problem := device_problem(config.device):
        parser.error(f"--device {config.device}: {problem}")  # before minutes of games, not after
    if missing := [name for name in ("onnx", "onnxruntime") if importlib.util.find_spec(name) is None]:
        parser.error(f"the int8 copy needs {' and '.join(missing)}: pip install 'shithead-env[export,runtime]'")
    start = time.perf_counter()
    if args.data and Path(args.data).is_file():
        with np.load(args.data) as stored:
            data = {key: stored[key] for key in stored.files}
    else:
        data = generate(config)
        if args.data:
            np.savez(args.data, **data)
    data.setdefault("source", np.full(len(data["targets"]), SOURCE_BOT, np.int8))  # data stored before sources
    print(f"{len(data['targets'])} positions from {config.games} games")
    if config.expert_run:
        extra = expert_positions(config.expert_run, config.expert_positions, config.workers)
        print(f"{len(extra['targets'])} positions from the self-play games of {config.expert_run}")
        data = {key: np.concatenate([data[key], extra[key]]) for key in extra}
    net, figures = fit(config, data)
    out = export_value(net, Path(args.out), config, figures, time.perf_counter() - start)
    print(f"held-out R^2 {figures['r2']} (by stage {figures['r2_by_stage']}); wrote {out}")
    copy = quantize(out)
    print(f"int8 copy: R^2 {copy['r2_int8']} against {copy['r2_fp32']} on {copy['measured_on']['positions']} fresh "
          "positions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
