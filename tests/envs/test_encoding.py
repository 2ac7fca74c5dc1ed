"""The observation encoder and the action mask: layout, docs, masks and the no-leak property."""

from __future__ import annotations

import numpy as np
import pytest

from shithead_env import (
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    PRESETS,
    Game,
    Knowledge,
    action_mask,
    encode_observation,
    load_rules,
)
from shithead_env.determinize import determinize_knowledge
from shithead_env.encoding import (
    DOCS_PATH,
    FIELDS,
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    OFFSETS,
    observation_markdown,
)
from tests.helpers import random_positions

TABLES = [(p, n) for p in PRESETS for n in (2, min(5, load_rules(p).max_players))]


def redeal_hidden(game: Game, seat: int, rng: np.random.Generator) -> Game:
    """Every card ``seat`` cannot know dealt anew among the places that hide cards from it (the determinizer)."""
    return determinize_knowledge(Knowledge.from_game(game, seat), rng)


def test_layout_is_computed_from_the_declaration() -> None:
    assert sum(f.size for f in FIELDS) == OBSERVATION_SIZE
    assert len({f.name for f in FIELDS}) == len(FIELDS)
    assert OFFSETS[FIELDS[-1].name] + FIELDS[-1].size == OBSERVATION_SIZE
    assert OBSERVATION_LOW.shape == OBSERVATION_HIGH.shape == (OBSERVATION_SIZE,)


def test_committed_docs_table_matches_the_encoder() -> None:
    assert DOCS_PATH.read_text(encoding="utf-8") == observation_markdown(), (
        "docs/observation.md is stale: run `python -m shithead_env.encoding --write-docs`"
    )


@pytest.mark.parametrize(("preset", "n"), TABLES)
def test_observation_within_bounds_and_mask_equals_legal_actions(preset: str, n: int) -> None:
    for game in random_positions(preset, n, seed=1, games=3, every=7):
        for seat in range(n):
            obs = encode_observation(game, seat)
            assert obs.dtype == np.float32 and obs.shape == (OBSERVATION_SIZE,)
            assert np.all(obs >= OBSERVATION_LOW) and np.all(obs <= OBSERVATION_HIGH)
            mask = action_mask(game, seat)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            expected = {a.index for a in game.legal_actions()} if seat == game.current else set()
            assert set(np.flatnonzero(mask)) == expected


def test_observer_comes_first_then_clockwise() -> None:
    game = Game.new("dead_last", 4, seed=3)
    hands = OFFSETS["hand_size"]
    for seat in range(4):
        obs = encode_observation(game, seat)
        assert obs[OFFSETS["actor"] + (game.current - seat) % 4] == 1
        np.testing.assert_array_equal(obs[hands : hands + 4], [len(game.hands[(seat + k) % 4]) for k in range(4)])
        assert obs[OFFSETS["seat_present"] : OFFSETS["seat_present"] + 10].sum() == 4


@pytest.mark.parametrize(("preset", "n"), TABLES)
def test_observation_depends_only_on_what_the_seat_may_know(preset: str, n: int) -> None:
    rng = np.random.default_rng(7)
    others_changed = False
    for game in random_positions(preset, n, seed=2, games=2, every=7):
        for seat in range(n):
            other = redeal_hidden(game, seat, rng)
            np.testing.assert_array_equal(encode_observation(other, seat), encode_observation(game, seat))
            others_changed |= any(
                not np.array_equal(encode_observation(other, s), encode_observation(game, s)) for s in range(n)
            )
    assert others_changed, "the re-deal never changed anything: the test would not catch a leak"


def test_rejects_a_seat_outside_the_table() -> None:
    with pytest.raises(ValueError, match="seat"):
        encode_observation(Game.new("pub", 3, seed=0), 3)
