"""The state's one declaration (shithead_env.fields) against every writer, reader, schema and doc of it, and
against the hand-written hot paths (``Game.copy``, ``Knowledge.from_game``) and ``Game.assemble``."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from shithead_env import Game, Knowledge, StateError, fields, load_rules
from shithead_env.cards import RANKS, card_names
from shithead_env.fields import CODECS, NOBODY, OWNER, SEAT_FIELDS, TABLE_FIELDS, VIEW_SEAT, VIEW_TABLE, Field
from shithead_env.phases import NOMINATE
from tests.helpers import PRESETS, make_state, random_positions

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("preset", PRESETS)
def test_the_state_and_every_view_carry_exactly_the_declared_keys(preset):
    for game in random_positions(preset, 4, seed=5):
        state = game.to_dict()
        assert list(state) == fields.state_keys()
        assert all(list(player) == fields.seat_keys() for player in state["players"])
        view = game.view(game.current if game.current is not None else 0)
        assert set(view) == fields.view_keys()
        assert list(view) == list(fields.VIEW_ORDER)
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


def test_every_codec_reads_back_what_it_writes_and_names_the_field_it_refuses():
    _, values = distinct_game()
    for f in (*TABLE_FIELDS, *SEAT_FIELDS):
        codec = CODECS[f.codec]
        for value in values[f.attr] if f.per_seat else [values[f.attr]]:
            assert codec.from_json(json.loads(json.dumps(codec.to_json(value))), f.key, 10) == value, f.key
        with pytest.raises(StateError, match=re.escape(f"players[0].{f.key}" if f.per_seat else f.key)):
            codec.from_json("junk", f"players[0].{f.key}" if f.per_seat else f.key, 10)


def _state():
    return make_state("dead_last", [{"hand": "4 K", "face_down": "J"}, {"hand": "5 9", "face_down": "Q"}], pile="8")


@pytest.mark.parametrize("f", [*TABLE_FIELDS, *SEAT_FIELDS], ids=lambda f: f.key)
def test_the_state_reader_refuses_a_bad_value_of_every_field_by_its_path(f: Field):
    state = _state()
    Game.from_dict(state)
    (state["players"][1] if f.per_seat else state)[f.key] = "junk"
    with pytest.raises(StateError, match=re.escape(f"players[1].{f.key}" if f.per_seat else f"'{f.key}'")):
        Game.from_dict(state)


@pytest.mark.parametrize("shown", [*VIEW_TABLE, *VIEW_SEAT], ids=lambda s: s.key)
def test_the_view_reader_refuses_a_bad_value_of_every_key_a_field_shows_by_its_path(shown: fields.Shown):
    view = Game.new("dead_last", 3, seed=0).view(1)
    Knowledge.from_view(view)
    per_seat = shown in VIEW_SEAT
    (view["players"][1] if per_seat else view)[shown.key] = "junk"
    path = f"view.players[1].{shown.key}" if per_seat else f"view.{shown.key}"
    with pytest.raises(StateError, match=re.escape(path)):
        Knowledge.from_view(view)


def distinct_game(n: int = 10) -> tuple[Game, dict[str, Any]]:
    """An unchecked game whose every declared field holds a value of its own, and those values by ``Game``
    attribute: no card, seat or number repeats, and no field holds its default (as far as its codec allows)."""
    cards, seats, numbers = itertools.count(), itertools.count(), itertools.count(1)
    samples = {
        "cards": lambda: card_names([next(cards)]),
        "seat": lambda: next(seats),
        "seat or null": lambda: next(seats),
        "count": lambda: next(numbers),
        "positive count": lambda: next(numbers),
        "flag": lambda: True,
        "1 or -1": lambda: -1,
        "phase": lambda: NOMINATE,
        "seats": lambda: [next(seats)],
        "rank lists": lambda: [[RANKS[next(numbers) % len(RANKS)]]],
        "window or null": lambda: {"played_by": next(seats), "next": next(seats), "queue": [next(seats)]},
        "rank or null": lambda: RANKS[next(numbers) % len(RANKS)],
        "rules": lambda: load_rules("harrogate").to_dict() | {"name": "harrogate_copy"},  # in full: two decks at 10
    }
    values = {f.attr: f.from_json(samples[f.codec](), f.key, n) for f in TABLE_FIELDS}
    values |= {f.attr: [f.from_json(samples[f.codec](), f.key, n) for _ in range(n)] for f in SEAT_FIELDS}
    assert next(seats) < n - 1 and next(cards) < 52, "the samples ran out of distinct seats or cards"
    game = Game.assemble(values["rules"], check=False, **{k: v for k, v in values.items() if k != "rules"})
    return game, values


def test_assemble_and_copy_carry_every_declared_field():
    """``Game.copy`` is written out for speed (docs in shithead_env.fields): a field it misses fails here."""
    game, values = distinct_game()
    twin = game.copy()
    for f in (*TABLE_FIELDS, *SEAT_FIELDS):
        assert getattr(game, f.attr) == values[f.attr], f"Game.assemble does not carry {f.key!r}"
        assert getattr(twin, f.attr) == values[f.attr], f"Game.copy does not carry {f.key!r}"


def test_knowledge_from_game_carries_what_the_declaration_shows():
    """``Knowledge.from_game`` is written out for speed: it must hold every value and count a view shows."""
    game, values = distinct_game()
    seat = 4
    knowledge = Knowledge.from_game(game, seat)
    for shown in (*VIEW_TABLE, *VIEW_SEAT):
        value = values[shown.field.attr]
        if shown.field.visibility == OWNER and not shown.count:
            value = value[seat]  # the seat's own
        if shown.count:
            value = [len(v) for v in value] if shown.field.per_seat else len(value)
        assert getattr(knowledge, shown.attr) == value, f"Knowledge.from_game does not carry {shown.key!r}"
