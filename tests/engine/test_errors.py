"""Bad input gets a clear error that names the problem."""


import pytest

import shithead_env
from shithead_env import (
    NUM_ACTIONS,
    Action,
    Game,
    IllegalActionError,
    RulesError,
    StateError,
    load_rules,
)
from tests.helpers import make_state, position


def test_error_classes_are_value_errors():
    assert issubclass(RulesError, ValueError)
    assert issubclass(StateError, ValueError)
    assert issubclass(IllegalActionError, ValueError)
    assert shithead_env.RulesError is RulesError


# ---------------------------------------------------------------- rules


def write_rules(tmp_path, text, name="custom.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_unknown_preset():
    with pytest.raises(RulesError, match="no_such_preset"):
        load_rules("no_such_preset")


def test_custom_rules_extending_a_preset_load_and_play(tmp_path):
    path = write_rules(
        tmp_path,
        "extends: dead_last\nname: small_table\nplayers: {min: 2, max: 3}\n",
    )
    r = load_rules(path)
    g = Game.new(r, num_players=3, seed=1)
    assert len(g.to_dict()["players"]) == 3
    with pytest.raises(ValueError, match=r"\b4\b"):
        Game.new(r, num_players=4, seed=1)


BAD_RULES = [
    # (yaml text, regex the message must contain)
    ("extends: dead_last\nbogus_key: 1\n", "bogus_key"),
    ("extends: dead_last\npowers: {'Z': [burn]}\n", r"\bZ\b"),
    ("extends: dead_last\npowers: {'9': [teleport]}\n", "teleport"),
    (
        "extends: dead_last\nrank_order: ['2','3','4','5','6','7','8','9','T','J','Q','K','W']\n",
        r"\bW\b",
    ),
    ("extends: dead_last\nplayers: {min: 2, max: 8}\n", r"(?i)player|deck|card"),
    ("extends: pub\nplayers: {min: 2, max: 10}\n", r"(?i)player|deck|card"),
    ("extends: dead_last\nplayers: {min: 5, max: 3}\n", r"(?i)min|max|player"),
    ("extends: dead_last\nrun_burn: 1\n", "run_burn"),
    ("extends: dead_last\nrun_burn: many\n", "run_burn"),
    ("extends: dead_last\nface_up: sideways\n", "sideways"),
    ("extends: dead_last\nfirst_player: whoever\n", "whoever"),
    ("extends: dead_last\nnext_game: coin_toss\n", "coin_toss"),
    ("extends: dead_last\nmax_decisions: 0\n", "max_decisions"),
    ("extends: no_such_base\n", "no_such_base"),
    # Read as written, never widened or folded.
    ("extends: dead_last\nplayers: {}\n", "needs both min and max"),
    ("extends: dead_last\nplayers: {min: 3}\n", "missing max"),
    ("extends: dead_last\npowers: []\n", "'powers' must be a mapping"),
    ("extends: dead_last\npowers: {'9': {}}\n", "'powers.9' must be a list"),
    ("extends: dead_last\ndecks_from_players: []\n", "'decks_from_players' must be a mapping"),
    ("extends: online_classic\nfirst_player_ignores: ['a']\n", "unknown rank 'a'"),
    ("extends: dead_last\nrank_order: [2,3,4,5,6,7,8,9,T,J,Q,K,A]\n", "unknown rank 2"),
]


@pytest.mark.parametrize("text,msg", BAD_RULES)
def test_bad_custom_rules(tmp_path, text, msg):
    path = write_rules(tmp_path, text)
    with pytest.raises(RulesError, match=msg):
        load_rules(path)


def test_powers_as_a_list_is_refused_with_or_without_extends(tmp_path):
    with pytest.raises(RulesError, match="'powers' must be a mapping"):
        load_rules({**load_rules("dead_last").to_dict(), "powers": []})
    with pytest.raises(RulesError, match="'powers' must be a mapping"):
        load_rules(write_rules(tmp_path, "extends: dead_last\npowers: []\n"))


def test_rules_file_not_a_mapping(tmp_path):
    path = write_rules(tmp_path, "- just\n- a list\n")
    with pytest.raises(RulesError):
        load_rules(path)


# ---------------------------------------------------------------- player count


@pytest.mark.parametrize(
    "preset,n",
    [
        ("dead_last", 1),
        ("dead_last", 6),
        ("online_classic", 11),
        ("pub", 5),
        ("harrogate", 11),
        ("power_deck", 6),
        ("power_deck", 0),
    ],
)
def test_wrong_player_count(preset, n):
    with pytest.raises(ValueError, match=rf"\b{n}\b"):
        Game.new(load_rules(preset), num_players=n, seed=0)


@pytest.mark.parametrize("preset,n", [("dead_last", 2), ("dead_last", 5), ("online_classic", 10), ("pub", 4)])
def test_right_player_count_accepted(preset, n):
    g = Game.new(load_rules(preset), num_players=n, seed=0)
    assert len(g.to_dict()["players"]) == n


# ---------------------------------------------------------------- from_dict


def base_state(**kw):
    return make_state(
        "dead_last",
        [{"hand": "4 K"}, {"hand": "5 9", "face_down": "J"}, {"hand": "6 Q"}],
        pile="8",
        **kw,
    )


def test_base_state_is_valid():
    g = Game.from_dict(base_state())
    assert g.current_player == 0


@pytest.mark.parametrize("card", ["ZZ", "1S", "KZ", "10H", "X"])
def test_unknown_card(card):
    d = base_state()
    d["players"][1]["hand"].append(card)
    with pytest.raises(StateError, match=card):
        Game.from_dict(d)


def test_joker_outside_power_deck():
    d = base_state()
    d["pile"].append("XR")
    with pytest.raises(StateError, match="XR"):
        Game.from_dict(d)


def test_duplicated_card_one_deck():
    d = base_state()
    d["players"][0]["hand"] = ["KS", "4H"]
    d["players"][2]["face_down"] = ["KS"]
    with pytest.raises(StateError, match="KS"):
        Game.from_dict(d)


def test_card_twice_with_two_decks_ok_three_times_not():
    players = [{"hand": "4 6", "face_down": "J"} for _ in range(6)]
    players[0] = {"hand": ["KS", "KS", "4C"]}
    d = make_state("online_classic", players, pile="8", decks=2)
    Game.from_dict(d)  # two copies exist with two decks
    d["pile"].append("KS")
    with pytest.raises(StateError, match="KS"):
        Game.from_dict(d)


@pytest.mark.parametrize(
    "field,value,msg",
    [
        ("current", 5, "current"),
        ("current", -1, "current"),
        ("finish_order", [7], "finish_order"),
        ("dealer", 9, "dealer"),
        ("direction", 2, "direction"),
        ("phase", "dancing", "dancing"),
    ],
)
def test_bad_field_values(field, value, msg):
    d = base_state()
    d[field] = value
    with pytest.raises(StateError, match=msg):
        Game.from_dict(d)


def test_safe_seat_holding_cards():
    d = base_state()
    d["finish_order"] = [1]
    with pytest.raises(StateError, match="finish_order"):
        Game.from_dict(d)


@pytest.mark.parametrize("field", ["rules", "players", "current"])
def test_missing_required_field(field):
    d = base_state()
    del d[field]
    with pytest.raises(StateError, match=field):
        Game.from_dict(d)


@pytest.mark.parametrize("field", ["hand", "face_up", "face_down", "known"])
def test_omitted_player_zone_defaults_to_empty(field):
    d = base_state()
    d["players"][1].pop(field, None)
    assert Game.from_dict(d).to_dict()["players"][1][field] == []


def test_misspelt_player_zone_is_refused():
    d = base_state()
    d["players"][1]["hnad"] = d["players"][1].pop("hand")
    with pytest.raises(StateError, match="hnad"):
        Game.from_dict(d)


def test_omitted_pile_defaults_to_empty():
    d = base_state()
    del d["pile"]
    assert Game.from_dict(d).pile == []


def test_unknown_rules_in_state():
    d = base_state()
    d["rules"] = "no_such_preset"
    with pytest.raises(ValueError, match="no_such_preset"):
        Game.from_dict(d)


def test_wrong_player_count_in_state():
    d = make_state("dead_last", [{"hand": r} for r in "456789"], pile="8")
    with pytest.raises(ValueError, match=r"(?i)player|\b6\b"):
        Game.from_dict(d)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("i", [NUM_ACTIONS, NUM_ACTIONS + 5, -1])
def test_action_index_out_of_range(i):
    with pytest.raises(ValueError, match=str(i)):
        Action.from_index(i)


def test_action_layout():
    assert NUM_ACTIONS == 139
    assert Action.play("2", 1).index == 0
    assert Action.play("K", 2).index == 11 * 8 + 1
    assert Action.play("X", 8).index == 111
    assert Action.pickup().index == 112
    assert Action.flip().index == 113
    assert Action.face_up("2").index == 114
    assert Action.face_up("X").index == 127
    assert Action.nominate(0).index == 128
    assert Action.nominate(9).index == 137
    assert Action.pass_().index == 138
    for i in range(NUM_ACTIONS):
        assert Action.from_index(i).index == i
    assert Action.play("K", 2) is Action.play("K", 2)
    assert Action.from_dict({"kind": "play", "rank": "K", "count": 2}) is Action.play("K", 2)


@pytest.mark.parametrize("count", [0, 9])
def test_action_bad_count(count):
    with pytest.raises(ValueError):
        Action.play("K", count)


def test_action_bad_rank():
    with pytest.raises(ValueError, match="Z"):
        Action.play("Z", 1)


# ---------------------------------------------------------------- illegal steps


@pytest.mark.parametrize(
    "action",
    [
        Action.play("4", 1),  # below the 9
        Action.play("K", 2),  # only one K held
        Action.play("Q", 1),  # not held
        Action.pickup(),  # must play
        Action.flip(),  # not on face-down cards
        Action.nominate(1),  # not a nomination phase
        Action.pass_(),  # no window
        Action.face_up("K"),  # not the swap phase
    ],
)
def test_illegal_step_raises_and_leaves_state(action):
    g = position("dead_last", [{"hand": "4 K"}, {"hand": "5 6", "face_down": "J"}], pile="9")
    before = g.to_dict()
    with pytest.raises(IllegalActionError):
        g.step(action)
    assert g.to_dict() == before
    assert set(g.legal_actions()) == {Action.play("K", 1)}


def test_illegal_step_message_names_the_action():
    g = position("dead_last", [{"hand": "4 K"}, {"hand": "5 6", "face_down": "J"}], pile="9")
    with pytest.raises(IllegalActionError, match=r"4"):
        g.step(Action.play("4", 1))
