"""Flat observation vectors and the action mask for any engine state, from one seat's point of view.

Each encoding version is one ``Encoding``: its layout is declared once (a tuple
of ``Field``), and the offsets, the Gymnasium ``Box`` bounds and the documented
table (docs/observation.md) are all generated from it, so they cannot drift.
``ENCODINGS`` holds every version a model may have been trained on;
``ENCODING_VERSION`` is the current one (what the environments and new training
use unless told otherwise). A model is always fed the version it was trained on:
its card (``bot.json``) or its policy's input size names it (``encoding_for_size``).

- Version 1 (legacy, the version-1 models' input): raw counts, no inference.
- Version 2 (current): every cell scaled into [0, 1] ([-1, 1] for the
  direction) by its declared bound, plus what a strong player counts: the
  unseen cards per rank, each seat's cards left and hidden hand cards, the
  ranks each seat's hidden hand cards may have (its ``narrowed`` masks), and the
  observer's legal ranks and pickup.

Every vector is sized for ``MAX_SEATS`` so one network fits every player count;
slots of seats missing at a smaller table stay zero. Seats are relative to the
observer: slot 0 is the observer, slot k is seat ``(observer + k) % num_players``
(clockwise, whatever the current direction). The encoders read a ``Knowledge``
(the seat's view), so they cannot read a hidden card, and a JSON view encodes
without dealing out hidden cards.

Regenerate the docs page with ``python -m shithead_env.encoding --write-docs``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from shithead_env.actions import MAX_SEATS, NUM_ACTIONS, Action
from shithead_env.cards import NUM_RANKS, RANKS
from shithead_env.encodings.layout import LINEAR, MAX_CARDS, MAX_DECKS, RAW, SCALES, SQRT, Encoding, Field
from shithead_env.encodings.v1 import FIELDS_V1, OFFSETS_V1, V1
from shithead_env.encodings.v2 import FIELDS_V2, OFFSETS_V2, V2
from shithead_env.encodings.v2_batch import encode_batch_v2
from shithead_env.knowledge import Knowledge

if TYPE_CHECKING:
    from shithead_env.game import Game

__all__ = [
    "ENCODING",
    "ENCODINGS",
    "ENCODING_VERSION",
    "FIELDS",
    "FIELDS_V1",
    "FIELDS_V2",
    "LINEAR",
    "MAX_CARDS",
    "MAX_DECKS",
    "OBSERVATION_HIGH",
    "OBSERVATION_LOW",
    "OBSERVATION_SIZE",
    "OFFSETS",
    "OFFSETS_V1",
    "OFFSETS_V2",
    "RAW",
    "SCALES",
    "SQRT",
    "V1",
    "V2",
    "Encoding",
    "Field",
    "action_mask",
    "encode_batch",
    "encode_knowledge",
    "encode_observation",
    "encoding_for_size",
    "get_encoding",
    "legal_mask",
    "legal_masks",
    "observation_markdown",
]

ENCODINGS: dict[int, Encoding] = {1: V1, 2: V2}
ENCODING_VERSION = 2
ENCODING = ENCODINGS[ENCODING_VERSION]

# The current version's layout (what the environments use by default).
FIELDS = ENCODING.fields
OFFSETS = ENCODING.offsets
OBSERVATION_SIZE = ENCODING.size
OBSERVATION_LOW = ENCODING.low
OBSERVATION_HIGH = ENCODING.high

_ENCODERS = {version: encoding.encoder for version, encoding in ENCODINGS.items()}
_BATCH_ENCODERS = {2: encode_batch_v2}  # versions with a batched encoder; the others encode row by row
# The fewest rows encode_batch hands to a batched encoder: measured on the vector envs (docs/design.md),
# 16 rows encode faster one by one, 64 faster batched (32: about even in time, fewer instructions batched).
BATCH_MIN_ROWS = 32


def get_encoding(version: int) -> Encoding:
    """The ``Encoding`` of ``version``; ``ValueError`` names the bad version and the known ones."""
    integral = isinstance(version, (int, np.integer)) and not isinstance(version, bool)
    encoding = ENCODINGS.get(int(version)) if integral else None
    if encoding is None:
        known = ", ".join(map(str, ENCODINGS))
        raise ValueError(f"unknown observation encoding version {version!r}; known versions: {known}")
    return encoding


def encoding_for_size(size: int) -> Encoding:
    """The ``Encoding`` whose vectors have ``size`` cells (a policy's input size); ``ValueError`` if none."""
    for encoding in ENCODINGS.values():
        if encoding.size == size:
            return encoding
    known = ", ".join(f"{e.size} (version {e.version})" for e in ENCODINGS.values())
    raise ValueError(f"no observation encoding has size {size!r}; known sizes: {known}")


def encode_knowledge(k: Knowledge, version: int = ENCODING_VERSION) -> np.ndarray:
    """The float32 observation of ``k``'s seat in encoding ``version``, acting or not."""
    encoder = _ENCODERS.get(version) if type(version) is int else None
    if encoder is None:
        encoder = get_encoding(version).encoder  # a numpy integer, or a ValueError naming the known versions
    return encoder(k)


def encode_batch(
    ks: Sequence[Knowledge], version: int = ENCODING_VERSION, legal: np.ndarray | None = None
) -> np.ndarray:
    """(len(ks), size) float32: row i is ``encode_knowledge(ks[i], version)``, bit for bit.

    From ``BATCH_MIN_ROWS`` rows on, version 2 encodes the batch in one numpy pass
    (``encodings.v2_batch``); below it, numpy's cost per call outweighs what it saves per row, and
    the rows are encoded one by one. ``legal``: the rows' ``legal_masks(ks)``, when the caller has them.
    """
    encoding = get_encoding(version)
    batch = _BATCH_ENCODERS.get(encoding.version)
    if batch is not None and len(ks) >= BATCH_MIN_ROWS:
        return batch(ks, legal_masks(ks) if legal is None else legal)
    observations = np.zeros((len(ks), encoding.size), np.float32)
    for row, k in enumerate(ks):
        observations[row] = encoding.encoder(k)
    return observations


def encode_observation(game: Game, seat: int, version: int = ENCODING_VERSION) -> np.ndarray:
    """The float32 observation of ``seat`` in ``game`` (``encode_knowledge`` of its view)."""
    return encode_knowledge(Knowledge.from_game(game, seat), version)


def legal_mask(k: Knowledge) -> np.ndarray:
    """int8 mask over ``NUM_ACTIONS``: ``k.legal`` (all zero unless the seat is asked to act)."""
    return _mask(k.legal)


def legal_masks(ks: Sequence[Knowledge]) -> np.ndarray:
    """(len(ks), NUM_ACTIONS) int8: row i is ``legal_mask(ks[i])``."""
    masks = np.zeros((len(ks), NUM_ACTIONS), np.int8)
    rows = range(0, len(ks) * NUM_ACTIONS, NUM_ACTIONS)
    masks.flat[[row + action.index for row, k in zip(rows, ks, strict=True) for action in k.legal]] = 1
    return masks


def action_mask(game: Game, seat: int) -> np.ndarray:
    """int8 mask over ``NUM_ACTIONS``: the engine's legal actions if ``seat`` is asked to act, else all zero."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat!r}")
    return _mask(game.legal_actions() if seat == game.current else [])


def _mask(legal: list[Action]) -> np.ndarray:
    cells = bytearray(NUM_ACTIONS)  # a few byte writes beat numpy's fancy indexing from a list
    for action in legal:
        cells[action.index] = 1
    return np.frombuffer(cells, np.int8)


def observation_markdown() -> str:
    """The docs/observation.md page, generated from the encodings' fields: the current version, then the older."""
    lines = [
        "# Observation encoding",
        "",
        "<!-- Generated by `python -m shithead_env.encoding --write-docs`; do not edit by hand. -->",
        "",
        f"Current encoding version **{ENCODING_VERSION}** (`shithead_env.ENCODING_VERSION`): `OBSERVATION_SIZE` =",
        f"**{OBSERVATION_SIZE}** float32 values; every version is sized for `MAX_SEATS` = {MAX_SEATS} whatever the",
        "table size (slots of missing seats stay zero). Built by `shithead_env.encode_observation(game, seat,",
        "version=ENCODING_VERSION)`, or `encode_knowledge(Knowledge.from_view(view), version)` from a JSON view;",
        "the mask by `shithead_env.action_mask(game, seat)` or `legal_mask(knowledge)`. Each version is a",
        "`shithead_env.Encoding` (`ENCODINGS[version]`, `get_encoding(version)`, `encoding_for_size(size)`) with",
        "its `size`, `low`/`high` (the bounds of the Gymnasium `Box`) and `encode(knowledge)`; the environments",
        "take `encoding=<version>` (docs/environments.md).",
        "",
        "A model is always fed the version it was trained on: an exported model's `bot.json` names its",
        "`encoding_version` (and `observation_size`), and a training checkpoint's version follows from its",
        "policy's input size. Every version a shipped model reads stays loadable.",
        "",
        "Seat slots are relative to the observer: slot 0 is the observer, slot k is seat",
        "`(observer + k) % num_players` (clockwise, whatever the current direction). A field of shape",
        "`(slots, ranks)` is stored slot-major: cell `offset + slot * 14 + rank`. Ranks are indexed",
        f"`{' '.join(RANKS)}` (0..{NUM_RANKS - 1}, `X` = Joker). The `cell` column says how a field's value `x`",
        "is stored; `low`/`high` bound the stored cells.",
        "",
        ENCODING.markdown("current"),
    ]
    for version in sorted(ENCODINGS, reverse=True):
        if version != ENCODING_VERSION:
            lines.append(ENCODINGS[version].markdown("legacy"))
    return "\n".join(lines)


DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "observation.md"


def main(argv: list[str] | None = None) -> None:
    """Print the observation page, or write it to docs/observation.md."""
    parser = argparse.ArgumentParser(prog="python -m shithead_env.encoding", description=main.__doc__)
    parser.add_argument("--write-docs", action="store_true", help=f"write {DOCS_PATH}")
    args = parser.parse_args(argv)
    if args.write_docs:
        DOCS_PATH.write_text(observation_markdown(), encoding="utf-8")
        print(f"wrote {DOCS_PATH}")
    else:
        print(observation_markdown(), end="")


if __name__ == "__main__":
    main()
