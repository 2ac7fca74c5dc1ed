"""encode_batch and the numpy batch encoder of version 2: each row is the single encoder's vector bit for bit."""

from __future__ import annotations

import copy

import numpy as np
import pytest

from shithead_env import ENCODINGS, Knowledge, encode_knowledge
from shithead_env.encoding import BATCH_MIN_ROWS, encode_batch, legal_mask, legal_masks
from shithead_env.encodings.v2_batch import encode_batch_v2
from tests.helpers import PRESETS, forced_pickup_game, random_positions


def views(preset: str, seed: int, games: int = 2) -> list[Knowledge]:
    """Every seat's view (acting or not) of seeded random positions, each read off its own copy of the game."""
    found = []
    for game in random_positions(preset, None, seed=seed, games=games, every=17):
        frozen = copy.deepcopy(game)  # a view shares its game's lists: keep each position as it was
        found += [Knowledge.from_game(frozen, seat) for seat in range(frozen.num_players)]
    return found


def assert_rows_equal(batch: np.ndarray, ks: list[Knowledge], version: int) -> None:
    assert batch.dtype == np.float32 and batch.shape == (len(ks), ENCODINGS[version].size)
    for row, k in zip(batch, ks, strict=True):
        assert row.tobytes() == encode_knowledge(k, version).tobytes()


@pytest.mark.parametrize("preset", PRESETS)
def test_every_row_of_the_numpy_batch_is_the_single_encoders_vector(preset: str) -> None:
    ks = views(preset, seed=11)
    for size in (1, 16):  # batches of one rules and table size, as an env's
        for start in range(0, len(ks), size * 7):
            batch = ks[start : start + size]
            assert_rows_equal(encode_batch_v2(batch, legal_masks(batch)), batch, 2)


def test_a_batch_may_mix_rules_table_sizes_and_seats() -> None:
    ks = [k for preset in PRESETS for k in views(preset, seed=5)]
    np.random.default_rng(0).shuffle(ks)
    assert len({(k.rules.name, k.num_players) for k in ks}) > 5 and len(ks) > BATCH_MIN_ROWS
    assert_rows_equal(encode_batch(ks), ks, 2)  # the numpy batch
    assert_rows_equal(encode_batch(ks[: BATCH_MIN_ROWS - 1]), ks[: BATCH_MIN_ROWS - 1], 2)  # row by row


def test_narrowed_hands_and_version_1_rows() -> None:
    game = forced_pickup_game()
    game.step(game.legal_actions()[0])  # seat 0 picks up: its hidden hand cards are narrowed
    ks = [Knowledge.from_game(game, seat) for seat in (0, 1)]
    assert any(ks[1].narrowed)
    assert_rows_equal(encode_batch_v2(ks, legal_masks(ks)), ks, 2)
    assert_rows_equal(encode_batch(ks, version=1), ks, 1)


def test_masks_and_an_empty_batch() -> None:
    ks = views("pub", seed=2)
    masks = legal_masks(ks)
    assert masks.dtype == np.int8
    for row, k in zip(masks, ks, strict=True):
        assert np.array_equal(row, legal_mask(k))
    assert encode_batch([]).shape == (0, ENCODINGS[2].size)
    with pytest.raises(ValueError, match="known versions"):
        encode_batch(ks, version=7)
