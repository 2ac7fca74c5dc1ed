"""``shithead export``: a trained checkpoint -> ``model.onnx`` + ``bot.json`` (the bot's card).

The checkpoint is a MaskablePPO ``.zip`` or an RLlib checkpoint directory (the
``rllib`` backend, ``train.rllib``); both give the same graph and card.

``model.onnx`` (see ``train.onnx_policy``) takes an observation batch
(float32 [B, size] in the encoding version the policy was trained on, found from
its input size: ``train.policy_bot.policy_encoding``) and an action-mask batch (bool [B, NUM_ACTIONS])
and returns the masked logits (the masked distribution's log-probabilities, -1e8
on illegal actions, exactly as sb3-contrib masks during training) and the
chosen action (their argmax). ``bot.json`` says what the model plays and for which
encoding (``encoding_version``, ``observation_size``) and action layout it was
exported; ``agents.onnx_bot`` feeds the model that encoding version and refuses a
card whose versions this runtime does not know. Play the export with ``model:<out dir>``.

Only this CLI's ``run`` imports torch.
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from agents.onnx_bot import CARD_FILE, CARD_FORMAT, MODEL_FILE
from agents.registry import sha256_of
from shithead_env import ACTION_LAYOUT_VERSION, ENCODING_VERSION, NUM_ACTIONS, Encoding, get_encoding

# A run directory (train/trainer.py): config.yaml, best/model.zip (+ eval.json), checkpoints/last.zip,
# final_eval.json (the evaluation at the end, of the checkpoint it names); an rllib run
# (train/rllib/trainer.py) has best/checkpoint/ and checkpoints/last/ instead.
CHECKPOINT_CANDIDATES = ("best/model.zip", "checkpoints/last.zip", "best/checkpoint", "checkpoints/last")
CONFIG_FILE = "config.yaml"
FINAL_EVAL_FILE = "final_eval.json"
CHECKPOINT_EVAL_FILE = "eval.json"
TRAIN_FILE = "train.json"
# Config keys copied into the card's training summary when the run has them.
TRAINING_KEYS = (
    "backend", "name", "rules", "num_players", "tables", "reward", "init_from", "init_sharpen", "seed",
    "total_timesteps", "n_envs", "lr_final_fraction",
    "opponents", "opponent_share", "league",
    "learning_rate", "n_steps", "batch_size", "n_epochs", "gamma", "gae_lambda", "clip_range", "ent_coef",
    "net_arch", "activation", "encoding", "max_decisions", "privileged_critic",
)  # fmt: skip
# ... and those of an expert-iteration run (backend: expert).
EXPERT_KEYS = ("teacher", "rounds", "round_games", "explore_moves", "play_by", "teacher_prior", "distil_epochs",
               "target_power", "learner_seats")


def resolve_checkpoint(path: str | Path) -> Path:
    """The checkpoint to export: ``path`` itself (a ``.zip`` or an RLlib checkpoint directory), or the best
    (else the last) checkpoint of a run directory."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file or directory")
    if path.is_file() or _is_rllib(path):
        return path
    for name in CHECKPOINT_CANDIDATES:
        if (path / name).is_file() or _is_rllib(path / name):
            return path / name
    raise FileNotFoundError(f"{path}: not a checkpoint, nor a run directory with {' or '.join(CHECKPOINT_CANDIDATES)}")


def _is_rllib(path: Path) -> bool:
    """An RLlib checkpoint directory (``train.rllib.policy.MODULE_PATH`` inside)."""
    return (path / "learner_group" / "learner" / "rl_module").is_dir()


def _run_dir(checkpoint: Path) -> Path | None:
    """The run directory holding ``checkpoint`` (the nearest parent with a ``config.yaml``)."""
    return next((d for d in checkpoint.parents[:3] if (d / CONFIG_FILE).is_file()), None)


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _evaluation_of(checkpoint: Path, directory: Path) -> dict[str, Any] | None:
    """``directory/final_eval.json`` when it evaluated this very checkpoint (named relative to ``directory``)."""
    final = _read_json(directory / FINAL_EVAL_FILE)
    name = checkpoint.resolve().relative_to(directory.resolve()).as_posix()
    return final if isinstance(final, dict) and final.get("checkpoint") == name else None


def run_metadata(checkpoint: Path) -> tuple[dict[str, Any], Any]:
    """(training summary, evaluation or None) for ``checkpoint``, from what its run left beside it.

    The evaluation is the run's ``final_eval.json`` when it evaluated this very
    checkpoint, else the one beside the checkpoint (a released copy, ``train.release``),
    else the ``eval.json`` saved with a best checkpoint. The training summary comes
    from the run's ``config.yaml``, found above the checkpoint or, for a released copy,
    above the checkpoint it was made from (``source``) when that run is still here.
    """
    training: dict[str, Any] = {"checkpoint": str(checkpoint)}
    run_dir = _run_dir(checkpoint)
    evaluation = _evaluation_of(checkpoint, run_dir) if run_dir is not None else None
    evaluation = evaluation or _evaluation_of(checkpoint, checkpoint.parent)
    evaluation = evaluation or _read_json(checkpoint.parent / CHECKPOINT_EVAL_FILE)
    if run_dir is None and isinstance(evaluation, dict) and evaluation.get("source"):
        source = Path(evaluation["source"])
        training["source"] = str(source)
        run_dir = _run_dir(source)
    step = _read_json(Path(training.get("source", checkpoint)).parent / CHECKPOINT_EVAL_FILE)
    if isinstance(step, dict) and "step" in step:  # a best checkpoint: the learner steps it was taken at
        training["step"] = step["step"]
    if run_dir is not None:
        config = yaml.safe_load((run_dir / CONFIG_FILE).read_text(encoding="utf-8")) or {}
        keys = [k for k in TRAINING_KEYS if not (config.get("tables") and k in ("rules", "num_players"))]
        keys += list(EXPERT_KEYS) if config.get("backend") == "expert" else []
        training.update({key: config[key] for key in keys if key in config})
        training.update(_read_json(run_dir / TRAIN_FILE) or {})  # steps trained and wall time
        training["run"] = run_dir.name
    return training, evaluation


def coverage_fields(tables: Mapping[str, Sequence[int]]) -> dict[str, Any]:
    """The card's ``rules`` (presets), ``players`` (every count) and ``tables`` (preset -> counts, the exact cover)."""
    return {
        "rules": list(tables),
        "players": sorted({n for counts in tables.values() for n in counts}),
        "tables": {rules: sorted(counts) for rules, counts in tables.items()},
    }


def make_card(
    name: str,
    tables: Mapping[str, Sequence[int]],
    training: Mapping[str, Any],
    evaluation: Any,
    model_sha256: str,
    encoding: Encoding | None = None,
) -> dict[str, Any]:
    """The ``bot.json`` content: ``tables`` (preset -> player counts) is exactly what the bot is made for;
    ``encoding`` is the one the model reads (default: the current version)."""
    encoding = encoding or get_encoding(ENCODING_VERSION)
    return {
        "name": name,
        "card_format": CARD_FORMAT,
        "kind": "policy",
        **coverage_fields(tables),
        "encoding_version": encoding.version,
        "action_layout_version": ACTION_LAYOUT_VERSION,
        "observation_size": encoding.size,
        "num_actions": NUM_ACTIONS,
        "model": {
            "file": MODEL_FILE,
            "sha256": model_sha256,
            "inputs": {
                "observation": f"float32 [batch, {encoding.size}]: shithead_env.encode_observation(game, seat, "
                f"version={encoding.version})",
                "action_mask": f"bool [batch, {NUM_ACTIONS}]: shithead_env.action_mask",
            },
            "outputs": {
                "masked_logits": "float32 [batch, NUM_ACTIONS]: log-probabilities, -1e8 on illegal actions",
                "action": "int64 [batch]: argmax of masked_logits (an index of the action layout)",
            },
        },
        "training": dict(training),
        "evaluation": evaluation,
        "exported_at": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }


def export(
    checkpoint: str | Path,
    out: str | Path,
    *,
    name: str | None = None,
    tables: Mapping[str, Sequence[int]] | None = None,
) -> Path:
    """Export ``checkpoint`` (a ``.zip`` or a run directory) to ``out``; returns ``out``.

    ``tables`` (preset -> player counts) default to the run's config (``tables``, else ``rules`` with
    ``num_players``).
    """
    from train.onnx_policy import MaskedPolicyGraph, export_onnx

    source = resolve_checkpoint(checkpoint)
    from train.policy_bot import policy_encoding

    graph_class: type[MaskedPolicyGraph] = MaskedPolicyGraph
    if _is_rllib(source):
        from train.rllib.policy import ModuleGraph, load_module

        policy = load_module(source)
        graph_class = ModuleGraph
    else:
        from train.policy_bot import load_policy

        policy = load_policy(source)  # first: a file that is no checkpoint is named as such
    training, evaluation = run_metadata(source)
    if not tables:
        tables = training.get("tables") or (
            {training["rules"]: [training["num_players"]]} if "rules" in training and "num_players" in training else {}
        )
    if not tables:
        where = "its run's config names no tables" if _run_dir(source) else (
            f"no run {CONFIG_FILE} beside or above it to read its tables from")
        raise ValueError(f"{source}: {where}; say which tables the bot is made for: --tables PRESET:N[,N...] "
                         "(e.g. --tables dead_last:4) or --rules PRESET --players N")
    try:
        encoding = policy_encoding(policy)
    except ValueError as error:
        raise ValueError(f"{source}: the policy's observations match no encoding version: {error}") from None
    if int(policy.action_space.n) != NUM_ACTIONS:
        raise ValueError(
            f"{source}: the policy has {policy.action_space.n} actions, but the action layout "
            f"(version {ACTION_LAYOUT_VERSION}) has {NUM_ACTIONS}"
        )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    model_path = out / MODEL_FILE
    export_onnx(policy, encoding.size, NUM_ACTIONS, model_path, graph_class)  # the graph takes the public size
    digest = sha256_of(model_path)
    card = make_card(name or out.resolve().name, tables, training, evaluation, digest, encoding)
    (out / CARD_FILE).write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--checkpoint", required=True, help="a MaskablePPO .zip, an RLlib checkpoint directory, or a "
                        "run directory of either (its best checkpoint)")
    parser.add_argument("--out", metavar="DIR", required=True, help="directory to write model.onnx and bot.json into")
    parser.add_argument("--name", default=None, help="the bot's name (default: the --out directory's name)")
    parser.add_argument("--tables", nargs="+", default=None, metavar="PRESET:N[,N...]",
                        help="the tables on the card, e.g. dead_last:2,3,4,5 pub:2 (default: the run's, read from the "
                        "config.yaml of the run the checkpoint is in)")  # fmt: skip
    parser.add_argument("--rules", default=None, help="one table's preset, with --players (instead of --tables)")
    parser.add_argument("--players", type=int, default=None,
                        help="one table's size, with --rules (instead of --tables)")


def card_tables_from(args: argparse.Namespace) -> dict[str, list[int]] | None:
    """The card's tables from ``--tables``, or the one of ``--rules`` with ``--players``; None: the run's."""

    tables = table_options(args)
    if tables is None:
        return None
    grouped: dict[str, list[int]] = {}
    for rules, n in tables:
        grouped.setdefault(rules, []).append(n)
    return grouped


def table_options(args: argparse.Namespace) -> list[tuple[str, int]] | None:
    """The tables ``--tables``, or ``--rules`` with ``--players``, name (one way of naming them for every command
    that plays or ships at several tables); None when neither is given."""
    from train.config import parse_tables

    if args.tables and (args.rules or args.players):
        raise ValueError("give --tables, or --rules with --players, not both")
    if args.tables:
        return parse_tables(args.tables)
    if bool(args.rules) != bool(args.players):
        raise ValueError(f"--rules and --players go together (got --rules {args.rules}, --players {args.players}); "
                         "or give --tables PRESET:N[,N...]")  # fmt: skip
    return [(args.rules, args.players)] if args.rules else None


def run(args: argparse.Namespace) -> int:
    out = export(args.checkpoint, args.out, name=args.name, tables=card_tables_from(args))
    card = json.loads((out / CARD_FILE).read_text(encoding="utf-8"))
    size = (out / MODEL_FILE).stat().st_size
    print(f"exported {card['training']['checkpoint']} -> {out}/{MODEL_FILE} ({size / 1e6:.2f} MB) + {CARD_FILE}")
    print(f"play it with the bot spec  model:{out}")
    return 0
