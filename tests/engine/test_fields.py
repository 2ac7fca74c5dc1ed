"""The state's one declaration (shithead_env.fields) against every writer, reader, schema and doc of it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shithead_env import Game, fields
from shithead_env.fields import NOBODY, OWNER, SEAT_FIELDS, TABLE_FIELDS, Field
from tests.helpers import PRESETS, random_positions

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_state_and_every_view_carry_exactly_the_declared_keys(preset):
    for game in random_positions(preset, 4, seed=5):
        state = game.to_dict()
        assert list(state) == fields.state_keys()
        assert all(list(player) == fields.seat_keys() for player in state["players"])
        view = game.view(game.current if game.current is not None else 0)
        assert set(view) == fields.view_keys()
        assert all(set(player) == fields.seat_view_keys() for player in view["players"])


def test_a_view_shows_a_hidden_field_only_as_its_count():
    game = Game.new("dead_last", 4, seed=3)
    state, view = game.to_dict(), game.view(1)
    for f in (*TABLE_FIELDS, *SEAT_FIELDS):
        if f.visibility not in (NOBODY, OWNER):
            continue
        owners = state["players"] if f.per_seat else [state]
        shown = view["players"] if f.per_seat else [view]
        for seat, (real, seen) in enumerate(zip(owners, shown, strict=True)):
            assert seen[f.count_key] == len(real[f.key]), (f.key, seat)
    assert view["hand"] == state["players"][1]["hand"]  # the owner's own hand


def test_the_state_reader_refuses_a_key_the_declaration_lacks():
    state = Game.new("dead_last", 2, seed=0).to_dict()
    with pytest.raises(Exception, match="unknown state key"):
        Game.from_dict({**state, "trump": "K"})
    state["players"][0]["secret"] = []
    with pytest.raises(Exception, match="unknown key"):
        Game.from_dict(state)


def test_the_view_schema_lists_exactly_the_declared_view_keys():
    schema = json.loads((ROOT / "agents/protocol/schema/view.schema.json").read_text(encoding="utf-8"))
    assert set(schema["properties"]) == fields.view_keys()
    assert set(schema["properties"]["players"]["items"]["properties"]) == fields.seat_view_keys()


def test_docs_hold_the_generated_field_table():
    assert fields.fields_markdown() in (ROOT / "docs/state.md").read_text(encoding="utf-8")


def test_a_field_nobody_sees_cannot_be_shown():
    with pytest.raises(ValueError, match="nobody sees it"):
        Field("deck", "cards", NOBODY, "the deck", view_key="deck")
    with pytest.raises(ValueError, match="visibility"):
        Field("deck", "cards", "everyone", "the deck")


def test_the_shared_codecs():
    assert fields.window_json(None) is None
    assert fields.window_json((1, 2, (3,))) == {"played_by": 1, "next": 2, "queue": [3]}
    assert fields.rank_json(None) is None and fields.rank_json(12) == "A"
