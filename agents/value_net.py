"""A full-state value network: every seat's expected placement score from the complete state, on ONNX Runtime.

Search bots (``guided``) score the full games they sample with it instead of
playing each one out. It reads what no player sees (every hand, the face-down
cards, the draw pile), so it is a search component, never a player: a
``Knowledge`` cannot be scored, only a ``Game``.

A value network is a directory with ``value.onnx`` and its card ``value.json``
(the tables it was trained for, its feature version, how it was trained and
measured); ``auto`` (``load_values``) is every shipped one, each scoring the
tables it was trained for. A network comes in three forms (``precision``):
``shipped``, the default and the one the wheel ships, a smaller form made from
the network and measured equal to it (the card's ``model.shipped``, written by
``train.shipped_forms``: ``int8w`` or ``fp16w``, see there; measured by
``benchmarks/check_shipped_forms.py``; a network whose card lists none, one you
trained, plays as trained); ``fp32``, the network as trained (``value.onnx``,
in the repository and the ``shithead-env-originals`` distribution:
``pip install "shithead-env[originals]"``); and ``int8`` (``model.int8``:
``value_int8.onnx``, written by ``train.quantize``, in
``shithead-env-checkpoints``), about 3.5 times faster a position, its R^2 on
fresh games within 0.002 of the network's. Every file is checked against the
sha256 its card records before it is loaded. Features (``value_features``): the
observation (encoding 2) of the
seat to act followed by ``shithead_env.full_state`` from the same seat, so seat
slots are relative to it; the network answers ``MAX_SEATS`` slot scores, slot k
being seat ``(actor + k) % num_players`` (slots past the table are ignored).
The score is the placement score (+1 first safe .. -1 the shithead) the seat
gets when every seat plays on as the bots whose games it learned from.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.onnx_bot import (
    AUTO,
    PACKAGE_ROOT,
    PRETRAINED_DIR,
    card_tables,
    describe_tables,
    merge_tables,
    onnx_session,
)
from agents.registry import REGISTRY_FILE, installed_file, network_dirs
from shithead_env import Game
from shithead_env.actions import MAX_SEATS
from shithead_env.encoding import get_encoding
from shithead_env.full_state import FULL_STATE_SIZE, encode_full_state

VALUE_CARD = "value.json"
VALUE_MODEL = "value.onnx"
VALUE_MODEL_INT8 = "value_int8.onnx"
SHIPPED_FILES = {"int8w": "value_int8w.onnx", "fp16w": "value_fp16w.onnx"}  # a shipped form's file, by its form
# precision -> the card's entry under ``model`` that lists its file and sha256 (None: ``model`` itself)
PRECISION_ENTRIES: dict[str, str | None] = {
    "shipped": "shipped",  # the form the wheel ships (int8w or fp16w), measured equal to the network
    "fp32": None,  # the network as trained
    "int8": "int8",  # dynamic quantization: int8 weights and per-batch int8 activations
}
PRECISIONS = tuple(PRECISION_ENTRIES)
DEFAULT_PRECISION = "shipped"
VALUE_FEATURES_VERSION = 1  # encoding 2 of the seat to act + full_state, slots from that seat
_OBSERVATION = get_encoding(2)
FEATURE_SIZE = _OBSERVATION.size + FULL_STATE_SIZE
DEFAULT_VALUE = AUTO  # every shipped network under agents/pretrained, each at its own tables


def value_features(game: Game) -> np.ndarray:
    """The network's input for a live ``game`` (float32, ``FEATURE_SIZE``), from the seat to act."""
    seat = game.current
    if seat is None:
        raise ValueError("value_features needs a live game (this one is over: score it with final_scores)")
    return np.concatenate((_OBSERVATION.encode_game(game, seat), encode_full_state(game, seat)))


def slot_scores_to_seats(slots: np.ndarray, actor: int, num_players: int) -> list[float]:
    """Per-seat scores (seat order) from one row of slot scores relative to ``actor``."""
    return [float(slots[(seat - actor) % num_players]) for seat in range(num_players)]


def resolve_value_dir(path: str | Path) -> Path:
    """The value network directory for ``path``: a directory, its card or a model file, or a name under
    agents/pretrained (a card with any of the networks' forms beside it)."""
    candidate = Path(path).expanduser()
    files = [VALUE_MODEL, VALUE_MODEL_INT8, *SHIPPED_FILES.values()]
    for option in (candidate, PACKAGE_ROOT / candidate, PRETRAINED_DIR / candidate):
        if option.is_file() and option.name in (VALUE_CARD, *files):
            option = option.parent
        if (option / VALUE_CARD).is_file() and any((option / name).is_file() for name in files):
            return option
    raise FileNotFoundError(f"{path}: not a value network directory (needs {VALUE_CARD} and one of "
                            f"{', '.join(files)})")


def load_value_card(directory: Path) -> dict[str, Any]:
    """``value.json``, checked for the feature version and size this runtime computes."""
    path = directory / VALUE_CARD
    card = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(card, dict) or card.get("kind") != "value":
        raise ValueError(f"{path}: not a value network card (expected a JSON object with kind 'value')")
    version, size = card.get("features_version"), card.get("feature_size")
    if version != VALUE_FEATURES_VERSION or size != FEATURE_SIZE:
        raise ValueError(
            f"{path}: the network reads features_version = {version!r} ({size!r} values), but this runtime "
            f"computes features_version = {VALUE_FEATURES_VERSION} ({FEATURE_SIZE} values); retrain it"
        )
    return card


def _form(card: Mapping[str, Any], entry: str | None) -> Mapping[str, Any] | None:
    """The card's ``model.<entry>`` (``model`` itself for None) when it names a file and its sha256, else None."""
    model = card.get("model", {})
    form = model if entry is None else model.get(entry)
    return form if isinstance(form, Mapping) and "file" in form and "sha256" in form else None


def check_precision(precision: str) -> str:
    """``precision`` if it is one of ``PRECISIONS``; else a one-line ``ValueError`` naming the choices."""
    if precision not in PRECISIONS:
        raise ValueError(f"value network precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    return precision


class ValueNet:
    """A shipped or trained value network (module doc). ``threads``: ONNX Runtime's intra-op threads;
    ``precision``: ``shipped`` (the default: the form the wheel ships, or the network as trained where its card
    lists none), ``fp32`` (the network as trained) or ``int8`` (its dynamic int8 copy)."""

    def __init__(self, path: str | Path, threads: int = 1, precision: str = DEFAULT_PRECISION) -> None:
        self.directory = resolve_value_dir(path)
        self.card = load_value_card(self.directory)
        self.name = str(self.card.setdefault("name", self.directory.name))  # a card may leave it to the directory
        self.tables = card_tables(self.card)
        check_precision(precision)
        form = _form(self.card, PRECISION_ENTRIES[precision])
        if form is None and precision == DEFAULT_PRECISION:  # a network you trained: no shipped form yet
            precision, form = "fp32", _form(self.card, None)
        if form is None:
            maker = {"int8": "quantize", "shipped": "shipped_forms"}.get(precision, "value")
            raise ValueError(f"{self.directory}: no {precision} form of this value network (its card lists none); "
                             f"make one with: python -m train.{maker} {self.directory}")
        self.precision = str(form.get("precision", precision))  # the form itself: int8w, fp16w, fp32 or int8
        self.sha256 = str(form["sha256"])  # the loaded file's, checked before it is loaded
        self.session = onnx_session(installed_file(self.directory / form["file"]), threads, self.sha256)
        # the name alone is the network as trained; a form is named with its precision, so a leaderboard entry
        # benched with one form does not pass for another
        self.networks = {self.name if self.precision == "fp32" else f"{self.name}:{self.precision}": self.sha256}
        self._input = self.session.get_inputs()[0].name

    def run(self, features: np.ndarray) -> np.ndarray:
        """Slot scores, float32 [B, MAX_SEATS], for a batch of ``value_features`` rows, clipped to the score
        range [-1, 1]: the network's linear head can stray past it, and a search's means must not."""
        slots = self.session.run(None, {self._input: np.asarray(features, np.float32)})[0]
        return np.clip(slots, -1.0, 1.0)

    def scores(self, games: Sequence[Game]) -> list[list[float]]:
        """Each live game's expected score per seat (seat order), in one batch."""
        if not games:
            return []
        slots = self.run(np.stack([value_features(game) for game in games]))
        return [slot_scores_to_seats(row, g.current, g.num_players) for row, g in zip(slots, games, strict=True)]

    def covers(self, rules: str, players: int) -> bool:
        return players in self.tables.get(rules, ())

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        return self.networks if self.covers(rules, players) else {}

    def coverage(self) -> str:
        return describe_tables(self.tables)


def shipped_value_dirs(root: Path = PRETRAINED_DIR) -> list[Path]:
    """The value networks ``value=auto`` plays: the registry's (``agents.registry``) where ``root`` has one, else
    every value network directory under ``root``; sorted."""
    if (root / REGISTRY_FILE).is_file():
        return network_dirs("value", root)
    return sorted(card.parent for card in root.glob(f"*/{VALUE_CARD}"))


class ShippedValues:
    """``value=auto``: every shipped value network, each scoring the tables it was trained for (the narrowest
    card first where two cover one table)."""

    def __init__(self, threads: int = 1, root: Path = PRETRAINED_DIR, precision: str = DEFAULT_PRECISION) -> None:
        nets = [ValueNet(directory, threads, precision) for directory in shipped_value_dirs(root)]
        if not nets:
            raise FileNotFoundError(f"value=auto: no value network under {root}")
        self.nets = sorted(nets, key=lambda net: (sum(map(len, net.tables.values())), net.name))
        self.name = AUTO
        self.tables = merge_tables(net.tables for net in self.nets)
        self.networks = {name: sha for net in self.nets for name, sha in net.networks.items()}  # at its precision

    def net_for(self, rules: str, players: int) -> ValueNet:
        """The network that scores this table; ``ValueError`` when none covers it."""
        for net in self.nets:
            if net.covers(rules, players):
                return net
        raise ValueError(f"value=auto: no shipped value network covers {rules} with {players} players "
                         f"(shipped: {self.coverage()})")

    def scores(self, games: Sequence[Game]) -> list[list[float]]:
        """Each live game's expected score per seat, every table's games in one batch of its network."""
        by_table: dict[tuple[str, int], list[int]] = {}
        for i, game in enumerate(games):
            by_table.setdefault((game.rules.name, game.num_players), []).append(i)
        scores: list[list[float]] = [[] for _ in games]
        for (rules, players), indices in by_table.items():
            for i, row in zip(indices, self.net_for(rules, players).scores([games[i] for i in indices]), strict=True):
                scores[i] = row
        return scores

    def covers(self, rules: str, players: int) -> bool:
        return any(net.covers(rules, players) for net in self.nets)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        return self.net_for(rules, players).networks if self.covers(rules, players) else {}

    def coverage(self) -> str:
        return describe_tables(self.tables)


def load_values(
    spec: str | Path = DEFAULT_VALUE, threads: int = 1, precision: str = DEFAULT_PRECISION
) -> ValueNet | ShippedValues:
    """The value network(s) a bot's ``value`` option names, at ``precision``: ``auto`` (every shipped one) or
    one directory."""
    if str(spec) == AUTO:
        return ShippedValues(threads, precision=precision)
    return ValueNet(spec, threads, precision)


def value_card(
    name: str,
    tables: Mapping[str, Sequence[int]],
    training: Mapping[str, Any],
    evaluation: Mapping[str, Any],
    model_sha256: str,
) -> dict[str, Any]:
    """The ``value.json`` content for a network trained on ``tables``."""
    return {
        "name": name,
        "kind": "value",
        "tables": {rules: sorted(counts) for rules, counts in tables.items()},
        "features_version": VALUE_FEATURES_VERSION,
        "feature_size": FEATURE_SIZE,
        "num_slots": MAX_SEATS,
        "model": {
            "file": VALUE_MODEL,
            "sha256": model_sha256,
            "inputs": {"features": f"float32 [batch, {FEATURE_SIZE}]: agents.value_net.value_features(game)"},
            "outputs": {"scores": f"float32 [batch, {MAX_SEATS}]: placement score per seat slot, slot 0 the seat "
                        "to act"},
        },
        "training": dict(training),
        "evaluation": dict(evaluation),
    }
