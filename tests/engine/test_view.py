"""The one per-seat view: ``Knowledge`` from a game equals ``Knowledge`` from its JSON view, and every
consumer (JSON view, observation of every encoding version, text render) reproduces the recorded fixtures of
real positions bit for bit."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from shithead_env import (
    ENCODINGS,
    PRESETS,
    Action,
    Game,
    Knowledge,
    StateError,
    encode_knowledge,
    encode_observation,
    legal_mask,
)
from tests.helpers import random_positions

FIXTURE_DIR = Path(__file__).parent.parent / "fixtures"
FIXTURES = json.loads((FIXTURE_DIR / "views_v1.json").read_text(encoding="utf-8"))
OBSERVATIONS_V2 = json.loads((FIXTURE_DIR / "observations_v2.json").read_text(encoding="utf-8"))


def _dense(sparse: dict[str, float], version: int) -> np.ndarray:
    obs = np.zeros(ENCODINGS[version].size, np.float32)
    for index, value in sparse.items():
        obs[int(index)] = value
    return obs


def _positions(preset: str, count: int, seed: int) -> list[Game]:
    """Snapshots of seeded random games of ``preset``, every table size and phase (the game over included)."""
    return list(itertools.islice(random_positions(preset, None, seed, games=None, depth=300), count))


def test_the_fixtures_cover_every_preset_and_phase() -> None:
    seen = {(r["state"]["rules"], r["state"]["phase"]) for r in FIXTURES}
    assert {rules for rules, _ in seen} == set(PRESETS)
    assert {phase for _, phase in seen} == {"swap", "play", "nominate", "interrupt", "over"}


@pytest.mark.parametrize("record", FIXTURES, ids=lambda r: f"{r['state']['rules']}-{r['state']['phase']}")
def test_view_observation_and_render_match_the_recorded_positions(record: dict) -> None:
    """Encoding version 1 stays bit-identical, so the shipped models keep their inputs; ``from_view`` also
    checks each view's legal actions against ``moves.legal_moves`` (interrupt windows included)."""
    game = Game.from_dict(record["state"])
    assert game.render() == record["render"]
    for seat, expected in enumerate(record["seats"]):
        obs = _dense(expected["observation"], 1)
        assert game.view(seat) == expected["view"]
        assert np.array_equal(encode_observation(game, seat, version=1), obs)
        assert np.array_equal(encode_knowledge(Knowledge.from_view(expected["view"]), version=1), obs)  # no game
        assert game.render(seat) == expected["render"]


def test_the_version_2_fixture_holds_the_positions_of_the_views_fixture() -> None:
    assert OBSERVATIONS_V2["encoding_version"] == 2
    positions = OBSERVATIONS_V2["positions"]
    assert len(positions) == len(FIXTURES)
    for position, record in zip(positions, FIXTURES, strict=True):
        state = record["state"]
        assert (position["rules"], position["phase"], position["decisions"]) == (
            state["rules"], state["phase"], state["decisions"],
        )  # fmt: skip
        assert len(position["seats"]) == len(record["seats"])


@pytest.mark.parametrize(
    ("record", "position"),
    list(zip(FIXTURES, OBSERVATIONS_V2["positions"], strict=True)),
    ids=[f"{r['state']['rules']}-{r['state']['phase']}" for r in FIXTURES],
)
def test_version_2_observations_match_the_recorded_positions(record: dict, position: dict) -> None:
    """Encoding version 2 stays bit-identical too (tests/fixtures/record_views.py says when to re-record),
    from a game and from the seat's JSON view alike."""
    game = Game.from_dict(record["state"])
    for seat, (expected, sparse) in enumerate(zip(record["seats"], position["seats"], strict=True)):
        obs = _dense(sparse, 2)
        assert np.array_equal(encode_observation(game, seat, version=2), obs)
        assert np.array_equal(encode_knowledge(Knowledge.from_view(expected["view"]), version=2), obs)


@pytest.mark.parametrize("preset", PRESETS)
def test_knowledge_from_a_game_equals_knowledge_from_its_view(preset: str) -> None:
    for game in _positions(preset, 40, seed=PRESETS.index(preset)):
        for seat in range(game.num_players):
            from_game = Knowledge.from_game(game, seat)
            from_view = Knowledge.from_view(game.view(seat))
            assert from_view == from_game
            assert from_view.legal == from_game.legal == from_game.rules_legal()
            for version in ENCODINGS:
                assert np.array_equal(encode_knowledge(from_view, version), encode_knowledge(from_game, version))
            assert np.array_equal(legal_mask(from_view), legal_mask(from_game))


def test_knowledge_differs_when_a_public_fact_differs() -> None:
    """The equality the property above relies on can fail: one moved pile card makes the views unequal."""
    game = next(g for g in _positions("dead_last", 20, seed=3) if len(g.pile) >= 2 and g.phase == "play")
    data = game.to_dict()
    data["pile"][0], data["pile"][-1] = data["pile"][-1], data["pile"][0]
    twin = Game.from_dict(data)
    assert Knowledge.from_game(twin, 0) != Knowledge.from_game(game, 0)


def test_a_view_with_legal_actions_the_rules_do_not_give_is_refused() -> None:
    game = next(g for g in _positions("pub", 20, seed=4) if g.phase == "play" and len(g.legal_actions()) > 1)
    view = game.view(game.current)
    view["legal_actions"] = view["legal_actions"][:-1]
    with pytest.raises(StateError, match="disagree with the rules"):
        Knowledge.from_view(view)
    other = game.view((game.current + 1) % game.num_players)
    other["legal_actions"] = view["legal_actions"]  # a seat not asked to act has no legal action
    with pytest.raises(StateError, match="disagree with the rules"):
        Knowledge.from_view(other)


def test_legal_actions_come_in_the_documented_order() -> None:
    """Action-index order with ``pickup`` last (docs/state.md): nobody may rely on another."""
    pickup = Action.pickup().index
    for preset in PRESETS:
        for game in _positions(preset, 40, seed=7):
            indices = [a.index for a in game.legal_actions()]
            assert indices == sorted(indices, key=lambda i: (i == pickup, i))

