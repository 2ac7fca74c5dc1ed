"""A bot that plays an exported policy (``model.onnx`` + ``bot.json``) on ONNX Runtime and numpy alone.

Spec: ``model:<dir>`` (``make_bot("model:agents/pretrained/generalist")``), with
the option ``sample=true`` to sample from the policy instead of taking its argmax.
A relative directory that does not exist under the working directory is looked
up under the installed package (so ``agents/pretrained/...`` works from anywhere).
``model:auto`` plays, at each table, the shipped model (``agents/pretrained``)
whose card covers it; where several do, the one whose card measured the best score
against ``heuristic`` at that table, then the narrowest card.

A card covers the tables in its ``tables`` (preset -> player counts); a card
without ``tables`` (format 1) covers each of its ``rules`` with each of its
``players``. ``covers(rules, players)`` says whether a table is among them.

The bot encodes the seat's ``Knowledge`` in the encoding version its card names
(``encoding_version``; ``observation_size`` must be that version's size): one
forward pass a move, whether the seat's view came as JSON or straight off a
game, and no hidden card is dealt out to do it. A model is always fed the
version it was trained on, so a version-1 model keeps playing after the
current version moved on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import KnowledgeBot
from agents.registry import PRETRAINED_DIR, REGISTRY_FILE, installed_file, network_dirs, sha256_of
from shithead_env import (
    ACTION_LAYOUT_VERSION,
    ENCODINGS,
    NUM_ACTIONS,
    PRESETS,
    Action,
    Encoding,
    Game,
    Knowledge,
    get_encoding,
    legal_mask,
)

CARD_FILE = "bot.json"
MODEL_FILE = "model.onnx"
CARD_FORMAT = 2  # 2: the card lists its exact ``tables``
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
AUTO = "auto"

# bot.json key -> (what the runtime expects, what it means); the encoding is checked by ``card_encoding``.
REQUIRED_VERSIONS: dict[str, tuple[int, str]] = {
    "action_layout_version": (ACTION_LAYOUT_VERSION, "action layout (shithead_env.ACTION_LAYOUT_VERSION)"),
    "num_actions": (NUM_ACTIONS, "number of actions (shithead_env.NUM_ACTIONS)"),
}


class ModelVersionError(ValueError):
    """The model was exported for an encoding or action layout this runtime does not have."""


def card_encoding(card: Mapping[str, Any], where: str | Path = CARD_FILE) -> Encoding:
    """The observation encoding the card's model reads: its ``encoding_version``, whose size must be the
    card's ``observation_size``; ``ModelVersionError`` otherwise."""
    version, size = card.get("encoding_version"), card.get("observation_size")
    try:
        encoding = get_encoding(version)
    except ValueError:
        known = ", ".join(f"{v} (size {e.size})" for v, e in ENCODINGS.items())
        raise ModelVersionError(
            f"{where}: the model was exported for observation encoding encoding_version = {version!r}, which this "
            f"runtime does not know (it knows encoding_version = {known}); use a shithead-env that has it, or "
            "re-export the model from its checkpoint"
        ) from None
    if size != encoding.size:
        raise ModelVersionError(
            f"{where}: observation_size = {size!r} does not match encoding_version = {version}, whose vectors "
            f"have {encoding.size} values; the card is inconsistent (re-export the model)"
        )
    return encoding


def resolve_model_dir(path: str | Path) -> Path:
    """The exported model directory for ``path`` (a directory, or its ``model.onnx`` / ``bot.json``)."""
    candidate = Path(path).expanduser()
    if not candidate.exists() and not candidate.is_absolute() and (PACKAGE_ROOT / candidate).exists():
        candidate = PACKAGE_ROOT / candidate
    if candidate.is_file() and candidate.name in (CARD_FILE, MODEL_FILE):
        candidate = candidate.parent
    problem = f"{path}: not an exported model directory (needs {CARD_FILE} and {MODEL_FILE})"
    if not (candidate / CARD_FILE).is_file():
        raise FileNotFoundError(problem)
    installed_file(candidate / MODEL_FILE, problem)
    return candidate


def load_card(directory: str | Path) -> dict[str, Any]:
    """``bot.json`` of an exported model, checked against this runtime's versions."""
    path = resolve_model_dir(directory) / CARD_FILE
    card = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(card, dict):
        raise ValueError(f"{path}: expected a JSON object")
    card_encoding(card, path)
    for key, (expected, meaning) in REQUIRED_VERSIONS.items():
        found = card.get(key)
        if found != expected:
            raise ModelVersionError(
                f"{path}: the model was exported for {meaning} {key} = {found!r}, but this runtime uses "
                f"{key} = {expected}; re-export the model from its checkpoint with this version of shithead-env"
            )
    for key in ("name", "rules", "players"):
        if key not in card:
            raise ValueError(f"{path}: missing required key {key!r}")
    tables = card.get("tables", {})
    if not isinstance(tables, dict) or not all(
        isinstance(counts, list) and all(isinstance(n, int) for n in counts) for counts in tables.values()
    ):
        raise ValueError(f"{path}: 'tables' must map each preset to a list of player counts, got {tables!r}")
    return card


def card_tables(card: Mapping[str, Any]) -> dict[str, tuple[int, ...]]:
    """The tables a card covers, preset -> player counts (format 1: every listed preset with every count)."""
    if "tables" in card:
        return {str(rules): tuple(counts) for rules, counts in card["tables"].items()}
    return {str(rules): tuple(card["players"]) for rules in card["rules"]}


def describe_tables(tables: Mapping[str, tuple[int, ...]]) -> str:
    """``dead_last 2-5, pub 2/4``: a coverage in words."""
    def counts(ns: tuple[int, ...]) -> str:
        ordered = sorted(ns)
        if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
            return f"{ordered[0]}-{ordered[-1]}"
        return "/".join(map(str, ordered))

    return ", ".join(f"{rules} {counts(ns)}" for rules, ns in tables.items()) or "no table"


def merge_tables(coverages: Iterable[Mapping[str, Sequence[int]]]) -> dict[str, tuple[int, ...]]:
    """The tables any of ``coverages`` covers, presets in their documented order, then any others."""
    tables: dict[str, set[int]] = {}
    for coverage in coverages:
        for rules, counts in coverage.items():
            tables.setdefault(rules, set()).update(counts)
    order = {name: i for i, name in enumerate(PRESETS)}
    return {rules: tuple(sorted(tables[rules])) for rules in sorted(tables, key=lambda r: order.get(r, len(order)))}


def shipped_model_dirs(root: str | Path = PRETRAINED_DIR) -> Iterator[Path]:
    """Every exported model directory under ``root`` (a ``bot.json`` beside a ``model.onnx``), sorted."""
    for card_path in sorted(Path(root).rglob(CARD_FILE)):
        if (card_path.parent / MODEL_FILE).is_file():
            yield card_path.parent


def auto_model_dirs(root: str | Path = PRETRAINED_DIR) -> list[Path]:
    """The models ``model:auto`` chooses from: the registry's (``agents.registry``) where ``root`` has one,
    else every exported model directory under ``root``."""
    root = Path(root)
    if (root / REGISTRY_FILE).is_file():
        return network_dirs("policy", root)
    return list(shipped_model_dirs(root))


def model_sha256(card: Mapping[str, Any]) -> str | None:
    """The sha256 of the network file a model's or value network's card was written for (None: not given)."""
    model = card.get("model")
    return str(model["sha256"]) if isinstance(model, Mapping) and "sha256" in model else None


def card_networks(card: Mapping[str, Any]) -> dict[str, str]:
    """Name -> sha256 of every network file behind a bot's card: the ``networks`` a composite bot lists, or
    the card's own model. A leaderboard entry's card carries them, so a network changed without a re-bench
    shows."""
    if "networks" in card:
        return dict(card["networks"])
    sha256 = model_sha256(card)
    return {} if sha256 is None else {str(card["name"]): sha256}


def networks_of(parts: Iterable[object]) -> dict[str, str]:
    """``card_networks`` over the cards of ``parts`` (bots, value networks; one without a card, such as
    ``heuristic``, adds none): every network a bot made of them plays with."""
    return {name: sha for part in parts for name, sha in card_networks(getattr(part, "card", None) or {}).items()}


def table_networks(part: object, rules: str, players: int) -> dict[str, str]:
    """Name -> sha256 of the network files ``part`` (a bot, value networks, or None) plays with at this table:
    a bot made of per-table parts answers with its ``networks_at``; any other, with every network its card lists.
    A bench match records these, so a network added for another table leaves its results standing."""
    networks_at = getattr(part, "networks_at", None)
    if networks_at is not None:
        return dict(networks_at(rules, players))
    return card_networks(getattr(part, "card", None) or {})


def onnx_session(path: Path, threads: int = 1, sha256: str | None = None) -> Any:
    """An ONNX Runtime CPU session of ``path`` with ``threads`` intra-op threads (one inter-op thread);
    ``sha256`` (the card's) must be the file's, so a card never vouches for another network."""
    import onnxruntime

    if sha256 is not None:
        found = sha256_of(path)
        if found != sha256:
            raise ValueError(f"{path}: its sha256 is {found}, but its card says {sha256}; re-export the model "
                             "or restore the file its card was written for")
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def masked_probabilities(masked_logits: np.ndarray) -> np.ndarray:
    """Probabilities from the model's masked logits (already log-probabilities: illegal ones are -1e8)."""
    probs = np.exp(masked_logits.astype(np.float64))
    return probs / probs.sum(axis=-1, keepdims=True)


class OnnxBot(KnowledgeBot):
    """Plays an exported policy. ``path``: the model directory; ``sample``: sample instead of argmax.

    ``encoding``: the observation encoding the model reads (its card's ``encoding_version``).
    """

    def __init__(self, path: str, sample: bool = False, threads: int = 1) -> None:
        self.directory = resolve_model_dir(path)
        self.card = load_card(self.directory)
        self.encoding = card_encoding(self.card, self.directory / CARD_FILE)
        self.name: str = str(self.card["name"])
        self.tables = card_tables(self.card)
        self.rules: tuple[str, ...] = tuple(self.tables)
        self.players: tuple[int, ...] = tuple(sorted({n for counts in self.tables.values() for n in counts}))
        self.sample = sample
        self.session = onnx_session(self.directory / MODEL_FILE, threads, model_sha256(self.card))
        width = self.session.get_inputs()[0].shape[-1]  # "batch" x size; a symbolic size is not checked
        if isinstance(width, int) and width != self.encoding.size:
            raise ModelVersionError(
                f"{self.directory / MODEL_FILE}: the graph takes observations of {width} values, but its card "
                f"says encoding_version = {self.encoding.version} ({self.encoding.size} values)"
            )

    def run(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The model on a batch: (masked logits float32 [B, NUM_ACTIONS], argmax actions int64 [B])."""
        logits, actions = self.session.run(
            None, {"observation": np.asarray(observations, np.float32), "action_mask": np.asarray(masks, bool)}
        )
        return logits, actions

    def policies(self, knowledge: Sequence[Knowledge], rng: np.random.Generator) -> tuple[list[Action], np.ndarray]:
        """The chosen action at each position, and the policy's probabilities over all actions (zero on illegal
        ones), from one call of the model."""
        logits, actions = self.run(np.stack([self.encoding.encode(k) for k in knowledge]),
                                   np.stack([legal_mask(k) for k in knowledge]))
        probs = masked_probabilities(logits)
        indices = [int(rng.choice(NUM_ACTIONS, p=p)) for p in probs] if self.sample else actions.tolist()
        return [Action.from_index(int(i)) for i in indices], probs

    def policy(self, knowledge: Knowledge, rng: np.random.Generator) -> tuple[Action, np.ndarray]:
        """The chosen action and the policy's probabilities over all actions (zero on illegal ones)."""
        actions, probs = self.policies([knowledge], rng)
        return actions[0], probs[0]

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.policy(knowledge, rng)[0]

    def act_games(self, games: Sequence[Game], seat: int, rng: np.random.Generator) -> list[Action]:
        return self.policies([Knowledge.from_game(game, seat) for game in games], rng)[0] if games else []

    def covers(self, rules: str, players: int) -> bool:
        return players in self.tables.get(rules, ())

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        return card_networks(self.card) if self.covers(rules, players) else {}

    def coverage(self) -> str:
        return describe_tables(self.tables)


def measured_score(card: Mapping[str, Any], rules: str, players: int, opponent: str = "heuristic") -> float | None:
    """The card's measured mean score against ``opponent`` at this table (a result without a table, from a card
    of one table, is that table's), or None."""
    evaluation = card.get("evaluation") or {}
    single = card_tables(card) == {rules: (players,)}
    for result in evaluation.get("results", []):
        at = (result.get("rules"), result.get("players"))
        if result.get("opponent") == opponent and (at == (rules, players) or (at == (None, None) and single)):
            return float(result["score"])
    return None


def choose_model(cards: Sequence[Mapping[str, Any]], rules: str, players: int) -> Mapping[str, Any] | None:
    """The card ``model:auto`` seats at this table: of those covering it, the best measured score against
    ``heuristic`` there, then the narrowest card, then the first name; None when no card covers it."""
    covering = sorted((card for card in cards if players in card_tables(card).get(rules, ())),
                      key=lambda card: (sum(map(len, card_tables(card).values())), str(card["name"])))
    if not covering:
        return None
    scores = [measured_score(card, rules, players) for card in covering]
    return covering[max(range(len(covering)), key=lambda i: (scores[i] is not None, scores[i] or 0.0, -i))]


class ShippedBot(KnowledgeBot):
    """``model:auto``: at each table, the shipped model whose card covers it (the best measured there, then the
    narrowest card)."""

    def __init__(self, sample: bool = False, threads: int = 1, root: str | Path = PRETRAINED_DIR) -> None:
        models = [OnnxBot(str(d), sample, threads) for d in auto_model_dirs(root)]
        if not models:
            raise FileNotFoundError(f"model:auto: no exported model under {root}")
        self.models = sorted(models, key=lambda m: (sum(map(len, m.tables.values())), m.name))
        self.tables = merge_tables(m.tables for m in self.models)
        self.rules = tuple(self.tables)
        self.name = AUTO
        self._chosen: dict[tuple[str, int], OnnxBot] = {}
        self.card = {"name": AUTO, "kind": "auto", "rules": list(self.rules), "tables": self.tables,
                     "models": {m.name: m.tables for m in self.models},
                     "networks": networks_of(self.models)}

    def model_for(self, rules: str, players: int) -> OnnxBot:
        """The model that plays this table; ``ValueError`` when no shipped card covers it."""
        chosen = self._chosen.get((rules, players))
        if chosen is not None:
            return chosen
        card = choose_model([m.card for m in self.models], rules, players)
        if card is not None:
            chosen = self._chosen[(rules, players)] = next(m for m in self.models if m.card is card)
            return chosen
        raise ValueError(f"model:auto: no shipped model covers {rules} with {players} players "
                         f"(shipped: {describe_tables(self.tables)})")

    def policy(self, knowledge: Knowledge, rng: np.random.Generator) -> tuple[Action, np.ndarray]:
        return self.model_for(knowledge.rules.name, knowledge.num_players).policy(knowledge, rng)

    def act_games(self, games: Sequence[Game], seat: int, rng: np.random.Generator) -> list[Action]:
        if not games:
            return []
        return self.model_for(games[0].rules.name, games[0].num_players).act_games(games, seat, rng)

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.policy(knowledge, rng)[0]

    def covers(self, rules: str, players: int) -> bool:
        return any(model.covers(rules, players) for model in self.models)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        return self.model_for(rules, players).networks_at(rules, players) if self.covers(rules, players) else {}

    def coverage(self) -> str:
        return f"{describe_tables(self.tables)} (the shipped cards together)"


def model_bot(path: str, sample: bool = False, threads: int = 1) -> KnowledgeBot:
    """The ``model`` bot kind: ``model:<dir>`` plays that export, ``model:auto`` the shipped one for each table."""
    if path == AUTO:
        return ShippedBot(sample, threads)
    return OnnxBot(path, sample, threads)
