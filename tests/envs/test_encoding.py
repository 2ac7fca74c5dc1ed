"""The observation encoders (every version) and the action mask: layout, docs, bounds, masks, the registry of
versions and the no-leak property."""

from __future__ import annotations

import numpy as np
import pytest

from shithead_env import (
    ENCODING_VERSION,
    ENCODINGS,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PRESETS,
    Encoding,
    Game,
    Knowledge,
    action_mask,
    encode_knowledge,
    encode_observation,
    encoding_for_size,
    get_encoding,
    load_rules,
)
from shithead_env.determinize import determinize_knowledge
from shithead_env.encoding import (
    DOCS_PATH,
    FIELDS,
    MAX_CARDS,
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    OFFSETS,
    observation_markdown,
)
from tests.helpers import random_positions

TABLES = [(p, n) for p in PRESETS for n in (2, min(5, load_rules(p).max_players))]
VERSIONS = sorted(ENCODINGS)


def redeal_hidden(game: Game, seat: int, rng: np.random.Generator) -> Game:
    """Every card ``seat`` cannot know dealt anew among the places that hide cards from it (the determinizer)."""
    return determinize_knowledge(Knowledge.from_game(game, seat), rng)


@pytest.mark.parametrize("version", VERSIONS)
def test_layout_is_computed_from_the_declaration(version: int) -> None:
    encoding = ENCODINGS[version]
    assert encoding.version == version
    assert sum(f.size for f in encoding.fields) == encoding.size
    assert len(set(encoding.names)) == len(encoding.fields)
    last = encoding.fields[-1]
    assert encoding.offsets[last.name] + last.size == encoding.size
    assert encoding.low.shape == encoding.high.shape == (encoding.size,)
    assert encoding.low.dtype == encoding.high.dtype == np.float32
    assert np.all(encoding.low < encoding.high)


def test_the_current_version_is_what_the_module_constants_describe() -> None:
    assert ENCODING_VERSION == 2 and set(ENCODINGS) == {1, 2}
    current = ENCODINGS[ENCODING_VERSION]
    assert current.size == OBSERVATION_SIZE and current.fields == FIELDS and current.offsets == OFFSETS
    assert np.array_equal(OBSERVATION_LOW, current.low) and np.array_equal(OBSERVATION_HIGH, current.high)
    assert ENCODINGS[1].size == 774, "version 1 is what the shipped models read: its layout never changes"
    assert ENCODINGS[2].size != ENCODINGS[1].size, "encoding_for_size tells the versions apart by size"


def test_version_1_keeps_raw_counts_and_version_2_scales_every_cell_into_the_unit_range() -> None:
    v1, v2 = ENCODINGS[1], ENCODINGS[2]
    assert all(f.scale == "raw" for f in v1.fields)
    assert v1.high[v1.offsets["hand_size"]] == MAX_CARDS
    assert all(f.scale in ("linear", "sqrt") for f in v2.fields)
    direction = v2.offsets["direction"]
    assert v2.low[direction] == -1 and np.all(np.delete(v2.low, direction) == 0) and np.all(v2.high == 1)


def test_committed_docs_table_matches_the_encoder() -> None:
    assert DOCS_PATH.read_text(encoding="utf-8") == observation_markdown(), (
        "docs/observation.md is stale: run `python -m shithead_env.encoding --write-docs`"
    )


def test_docs_put_the_current_version_first_and_mark_version_1_legacy() -> None:
    page = observation_markdown()
    assert page.index("## Version 2 (current)") < page.index("## Version 1 (legacy)")
    assert f"`OBSERVATION_SIZE` =\n**{OBSERVATION_SIZE}**" in page


def _outside(encoding: Encoding, obs: np.ndarray) -> list[str]:
    """The fields with a cell outside the field's declared bounds."""
    return [f.name for f in encoding.fields if not np.all(
        (encoding.read(obs, f.name) >= f.box_low) & (encoding.read(obs, f.name) <= f.box_high)
    )]  # fmt: skip


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("preset", "n"), TABLES)
def test_observation_within_bounds_and_mask_equals_legal_actions(preset: str, n: int, version: int) -> None:
    encoding = ENCODINGS[version]
    for game in random_positions(preset, n, seed=1, games=3, every=7):
        for seat in range(n):
            obs = encode_observation(game, seat, version)
            assert obs.dtype == np.float32 and obs.shape == (encoding.size,)
            assert not _outside(encoding, obs), f"cells outside the Box in {_outside(encoding, obs)}"
            assert np.all(obs >= encoding.low) and np.all(obs <= encoding.high)
            assert np.array_equal(encode_observation(game.copy(), seat, version), obs)  # deterministic
            mask = action_mask(game, seat)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            expected = {a.index for a in game.legal_actions()} if seat == game.current else set()
            assert set(np.flatnonzero(mask)) == expected


@pytest.mark.parametrize("version", VERSIONS)
def test_observer_comes_first_then_clockwise(version: int) -> None:
    encoding = ENCODINGS[version]
    game = Game.new("dead_last", 4, seed=3)
    game.step(game.legal_actions()[0])  # seat sizes now differ: the chooser moved a card face up
    for seat in range(4):
        obs = encode_observation(game, seat, version)
        assert encoding.read(obs, "actor")[(game.current - seat) % 4] == 1
        sizes = np.array([len(game.hands[(seat + k) % 4]) for k in range(4)], np.float64)
        cells = sizes if version == 1 else np.sqrt(sizes / MAX_CARDS)
        np.testing.assert_allclose(encoding.read(obs, "hand_size")[:4], cells, rtol=1e-6)
        assert encoding.read(obs, "seat_present").sum() == 4


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("preset", "n"), TABLES)
def test_observation_depends_only_on_what_the_seat_may_know(preset: str, n: int, version: int) -> None:
    rng = np.random.default_rng(7)
    others_changed = False
    for game in random_positions(preset, n, seed=2, games=2, every=7):
        for seat in range(n):
            other = redeal_hidden(game, seat, rng)
            seen = encode_observation(game, seat, version)
            np.testing.assert_array_equal(encode_observation(other, seat, version), seen)
            others_changed |= any(
                not np.array_equal(encode_observation(other, s, version), encode_observation(game, s, version))
                for s in range(n)
            )
    assert others_changed, "the re-deal never changed anything: the test would not catch a leak"


def test_rejects_a_seat_outside_the_table() -> None:
    with pytest.raises(ValueError, match="seat"):
        encode_observation(Game.new("pub", 3, seed=0), 3)


# ------------------------------------------------------------ the registry of versions
@pytest.mark.parametrize("bad", [0, 3, 99, -1, "2", 2.0, True, None])
def test_an_unknown_version_is_refused_by_name(bad: object) -> None:
    with pytest.raises(ValueError, match=r"unknown observation encoding version .*; known versions: 1, 2") as info:
        get_encoding(bad)  # type: ignore[arg-type]
    assert repr(bad) in str(info.value) and "\n" not in str(info.value)
    game = Game.new("dead_last", 2, seed=0)
    with pytest.raises(ValueError, match="known versions: 1, 2"):
        encode_observation(game, 0, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="known versions: 1, 2"):
        encode_knowledge(Knowledge.from_game(game, 0), bad)  # type: ignore[arg-type]


def test_a_numpy_integer_names_a_version_too() -> None:
    assert get_encoding(np.int64(1)) is ENCODINGS[1]
    game = Game.new("dead_last", 2, seed=0)
    assert np.array_equal(encode_observation(game, 0, np.int64(1)), encode_observation(game, 0, 1))


def test_encoding_for_size_finds_each_version_and_names_an_unknown_size() -> None:
    for version, encoding in ENCODINGS.items():
        assert encoding_for_size(encoding.size) is encoding and encoding.version == version
    with pytest.raises(ValueError, match=r"no observation encoding has size 775; known sizes: 774 \(version 1\)"):
        encoding_for_size(775)


def test_the_default_version_is_the_current_one() -> None:
    game = Game.new("pub", 3, seed=4)
    k = Knowledge.from_game(game, 1)
    assert np.array_equal(encode_knowledge(k), encode_knowledge(k, ENCODING_VERSION))
    assert np.array_equal(encode_observation(game, 1), ENCODINGS[ENCODING_VERSION].encode(k))
    assert np.array_equal(ENCODINGS[1].encode_game(game, 1), encode_observation(game, 1, 1))


def test_the_bounds_cannot_be_overwritten() -> None:
    with pytest.raises(ValueError, match="read-only"):
        OBSERVATION_HIGH[0] = 5
