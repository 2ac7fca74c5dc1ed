"""Rule sets, states, views and events through JSON text (``json.dumps`` then ``json.loads``), copies and pickles.

The rule sets are drawn over every key a rules file may hold (tests/strategies.py), not only the presets; each
game plays random legal actions and is checked as it goes: its state and every seat's view read back from JSON
text to equal values of the same types, its copy and its pickle alike.
"""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import given

from shithead_env import Game, Knowledge, Rules, RulesError, StateError, events, load_rules
from shithead_env.cards import make_deck
from tests.helpers import PRESETS, random_action, typed, typed_state
from tests.strategies import ROUND_TRIP, new_game, rule_files, tables

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CHECKED_STEPS = 120  # decisions played per drawn game: the swap, then enough play to fill piles, burns and windows


def through_json(value: object) -> object:
    return json.loads(json.dumps(value))


def assert_rules_round_trip(rules: Rules) -> None:
    data = rules.to_dict()
    assert typed(through_json(data)) == typed(data)  # the writer emits JSON's own types: str keys, lists, no tuples
    again = load_rules(through_json(data))
    assert again == rules
    assert typed(again.to_dict()) == typed(data)
    assert Rules.from_dict(yaml.safe_load(yaml.safe_dump(data))) == rules  # and a YAML file of it


@ROUND_TRIP
@given(rule_files())
def test_every_rule_file_the_validator_accepts_round_trips_through_json_text(data):
    rules = Rules.from_dict(data)
    assert_rules_round_trip(rules)
    assert Rules.from_dict(through_json(data)) == rules  # the file itself as JSON text (YAML's int keys as strings)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_and_a_renamed_copy_round_trip_through_json_text(preset):
    assert_rules_round_trip(load_rules(preset))
    custom = load_rules(preset).to_dict() | {"name": f"my_{preset}"}  # stored in full, not by name
    assert_rules_round_trip(load_rules(custom))
    game = Game.new(load_rules(custom), load_rules(custom).max_players, seed=1)
    assert Game.from_dict(through_json(game.to_dict())) == game


def test_a_state_and_a_view_written_by_0_1_of_a_two_deck_rule_set_still_load():
    record = json.loads((FIXTURES / "two_decks_0_1.json").read_text(encoding="utf-8"))
    assert record["state"]["rules"]["decks_from_players"] == {"4": 2}  # as 0.1 wrote it: JSON's string key
    game = Game.from_dict(record["state"])
    assert game.rules.decks_for(5) == 2 and game.rules.decks_from_players == ((4, 2),)
    assert typed(through_json(game.to_dict())) == typed(game.to_dict())
    assert Game.from_dict(through_json(game.to_dict())) == game
    seat = record["view"]["seat"]
    assert Knowledge.from_view(record["view"]).to_dict() == game.view(seat) == record["view"]


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ({"06": 2}, "keys must be player counts"),
        ({" 6": 2}, "keys must be player counts"),
        ({"6.0": 2}, "keys must be player counts"),
        ({"six": 2}, "keys must be player counts"),
        ({True: 2}, "keys must be player counts"),
        ({6.0: 2}, "keys must be player counts"),
        ({6: 2, "6": 2}, "gives player count 6 twice"),
        ({"6": "2"}, "'decks_from_players.6' must be an integer"),
        ([[6, 2]], "'decks_from_players' must be a mapping"),
    ],
)
def test_the_rules_reader_refuses_any_other_deck_step_in_one_line_naming_the_field(steps, message):
    data = load_rules("harrogate").to_dict() | {"decks_from_players": steps}
    with pytest.raises(RulesError, match=re.escape(message)) as refused:
        load_rules(data)
    assert "decks_from_players" in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"max_decisions": np.int64(40)}, "max_decisions must be a positive int"),
        ({"max_decisions": True}, "max_decisions must be a positive int"),
        ({"previous_loser": True}, "previous_loser must be a seat"),
    ],
)
def test_a_deal_refuses_what_its_state_could_not_read_back(keywords, message):
    with pytest.raises(ValueError, match=message):
        Game.new("harrogate", 2, seed=1, **keywords)


def test_a_deal_refuses_a_dealer_that_is_a_bool():
    with pytest.raises(ValueError, match="dealer must be a seat"):
        Game.deal("pub", 2, make_deck(1, 0), True, 0)


@ROUND_TRIP
@given(tables())
def test_games_of_every_rule_set_round_trip_state_views_events_copies_and_pickles(table):
    game = new_game(table)
    log = events.record(game)
    rng = np.random.default_rng(table[2])
    checked = 0
    while True:
        if game.decisions % 7 == 0 or game.is_over:
            check_game_round_trips(game)
            checked += 1
        if game.is_over or game.decisions >= CHECKED_STEPS:
            break
        game.step(random_action(game, rng))
    assert checked >= 2 or game.is_over
    for event in log:  # what each seat is told (and an omniscient log) is JSON's own types too
        for viewer in (None, *range(game.num_players)):
            shown = event.for_seat(viewer)
            assert typed(through_json(shown)) == typed(shown), shown


def check_game_round_trips(game: Game) -> None:
    state = game.to_dict()
    text = json.dumps(state)
    assert typed(json.loads(text)) == typed(state)
    again = Game.from_dict(json.loads(text))
    assert typed_state(again) == typed_state(game) and again == game
    assert again.legal_actions() == game.legal_actions()
    for seat in range(game.num_players):
        view = game.view(seat)
        assert typed(through_json(view)) == typed(view)
        known = Knowledge.from_view(through_json(view))
        assert typed(known.to_dict()) == typed(view)
        assert known == Knowledge.from_game(game, seat)
    copied = game.copy()
    assert typed_state(copied) == typed_state(game) and copied.rules == game.rules
    pickled = pickle.loads(pickle.dumps(game))
    assert typed_state(pickled) == typed_state(game) and pickled.rules == game.rules and pickled == game


def test_a_state_reader_refusal_names_the_rules_field_in_one_line():
    state = Game.new(load_rules(load_rules("harrogate").to_dict() | {"name": "mine"}), 6, seed=1).to_dict()
    state["rules"]["decks_from_players"] = {"06": 2}
    with pytest.raises(StateError, match=r"^'rules': rules: 'decks_from_players' keys") as refused:
        Game.from_dict(state)
    assert "\n" not in str(refused.value)
