"""Impossible input is refused by name, and who is asked out of turn reveals nothing.

Refusals: each case is a position, rules file or action that play cannot
produce; the engine must raise its own named error (StateError, RulesError,
ValueError/TypeError naming the value) and never a bare crash later.
Properties: mutated real states and rule files give a valid game or a named
error; re-dealing the cards an observer cannot see changes nothing it sees.
"""

import json

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shithead_env import Action, Game, load_rules
from shithead_env.errors import StateError
from shithead_env.rules import RulesError
from tests.helpers import PLAYER_RANGE, make_state, random_positions


def state(**kw):
    players = kw.pop("players", [{"hand": "4 K", "face_down": "J"}, {"hand": "5 9", "face_down": "Q"}])
    return make_state(kw.pop("rules", "dead_last"), players, pile=kw.pop("pile", "8"), **kw)


def swap_state(**kw):
    players = [
        {"hand": "4 K 7 2", "face_up": "3 5", "face_down": "J Q A"},
        {"hand": "5 9 6 T 8 4", "face_down": "Q J A"},
    ]
    return state(players=players, pile="", phase="swap", **kw)


REFUSED = [
    ("rules of a non-string type", lambda d: d.update(rules=5), "'rules'"),
    ("rules of a list", lambda d: d.update(rules=["dead_last"]), "'rules'"),
    ("forced rank not held", lambda d: d.update(rules="power_deck", forced_rank="6"), "forced_rank"),
    ("forced rank without the rule", lambda d: d.update(forced_rank="4"), "forced_rank"),
    ("active seat without cards", lambda d: d["players"].append({}), "holds no cards"),
    ("direction 1.0", lambda d: d.update(direction=1.0), "'direction'"),
    ("current 0.0", lambda d: d.update(current=0.0), "'current'"),
    ("truncated mid-game", lambda d: d.update(truncated=True), "truncated"),
    ("decisions above max_decisions", lambda d: d.update(decisions=11, max_decisions=10), "decisions"),
    ("decisions at max_decisions mid-game", lambda d: d.update(decisions=10, max_decisions=10), "decisions"),
    ("float decisions", lambda d: d.update(decisions=3.0), "'decisions'"),
    ("four face-down cards", lambda d: d["players"][0].update(face_down=["JC", "JD", "JH", "JS"]), "face_down"),
    ("four face-up cards", lambda d: d["players"][0].update(face_up=["JC", "JD", "JH", "JS"]), "face_up"),
    (
        "interrupt without out-of-turn rules",
        lambda d: d.update(phase="interrupt", window={"played_by": 1, "next": 1, "queue": []}),
        "interrupt",
    ),
    ("nominate without a nominating play", lambda d: d.update(rules="power_deck", phase="nominate"), "nominate"),
    ("window outside interrupt", lambda d: d.update(window={"played_by": 1, "next": 0, "queue": []}), "window"),
    # Finished games: every seat placed with the shithead holding cards, or ended at the cap.
    ("finished with an empty finish order", lambda d: d.update(phase="over", current=None), "every seat"),
    ("finished, the placed seat still holding cards",
     lambda d: d.update(phase="over", current=None, finish_order=[0, 1]), r"\(safe\) but still holds"),
    ("finished with every zone empty",
     lambda d: d.update(phase="over", current=None, finish_order=[0, 1], pile=[],
                        players=[{"hand": [], "face_up": [], "face_down": []}] * 2), "shithead"),
    ("finished, every seat placed, yet truncated",
     lambda d: (d.update(phase="over", current=None, finish_order=[1, 0], truncated=True),
                d["players"][1].update(hand=[], face_down=[])), "truncated"),
    ("ended at the cap with one seat unplaced",
     lambda d: (d.update(phase="over", current=None, finish_order=[1], truncated=True, decisions=10, max_decisions=10),
                d["players"][1].update(hand=[], face_down=[])), "at least two seats unplaced"),
]


@pytest.mark.parametrize(("case", "change", "words"), REFUSED, ids=[r[0] for r in REFUSED])
def test_impossible_states_are_refused(case, change, words):
    d = state()
    Game.from_dict(d)  # the unchanged position is fine
    change(d)
    with pytest.raises(StateError, match=words):
        Game.from_dict(d)


def pub_window(**window):
    players = [{"hand": "4 6", "face_down": "J"}, {"hand": "5 9", "face_down": "Q"}, {}]
    w = {"played_by": 0, "next": 1, "queue": []} | window
    return make_state("pub", players, pile="K K", current=1, phase="interrupt", window=w, finish_order=[2])


def test_finished_games_play_reaches_are_accepted():
    d = state()
    d.update(phase="over", current=None, finish_order=[1, 0])
    d["players"][1].update(hand=[], face_down=[])
    assert Game.from_dict(d).is_over  # every seat placed, the shithead holding cards
    d = state(players=[{"hand": "4 K"}, {"hand": "5 9"}, {"hand": "6"}])
    d.update(phase="over", current=None, truncated=True, decisions=10, max_decisions=10)
    assert Game.from_dict(d).truncated  # ended at the cap with every seat unplaced


def test_window_seats_must_be_active():
    Game.from_dict(pub_window(played_by=2, next=0))  # the player who went out opened it: fine
    with pytest.raises(StateError, match=r"window\.next"):
        Game.from_dict(pub_window(next=2))
    with pytest.raises(StateError, match="seats asked"):
        Game.from_dict(pub_window(queue=[2]))
    with pytest.raises(StateError, match="seats asked"):
        Game.from_dict(pub_window(played_by=1))


SWAP_REFUSED = [
    ("nothing to choose", lambda d: d["players"][0].update(hand=[]), "nothing to choose"),
    ("three face-up already", lambda d: d["players"][0]["face_up"].append("6D"), "nothing to choose"),
    ("a known card", lambda d: d["players"][0].update(known=d["players"][0]["hand"][:1]), "known"),
    ("a forced rank", lambda d: d.update(rules="power_deck", forced_rank="4"), "forced_rank"),
    ("a card on the pile", lambda d: d.update(pile=["9S"]), "before any play"),
    ("a later chooser without cards", lambda d: d["players"][1].update(hand=[]), "seat 1 has still to choose"),
    (
        "a later chooser already done",
        lambda d: d["players"][1].update(hand=["5S", "9S", "6S"], face_up=["TS", "8S", "4S"]),
        "seat 1",
    ),
    ("a finished seat", lambda d: d.update(finish_order=[1]), "finish_order"),
]


@pytest.mark.parametrize(("case", "change", "words"), SWAP_REFUSED, ids=[r[0] for r in SWAP_REFUSED])
def test_impossible_swap_states_are_refused(case, change, words):
    d = swap_state()
    Game.from_dict(d)
    change(d)
    with pytest.raises(StateError, match=words):
        Game.from_dict(d)


# ---------------------------------------------------------------- rules files


def write(tmp_path, name, data):
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(yaml.safe_dump(data))
    return path


def test_extends_of_a_non_string_type(tmp_path):
    path = write(tmp_path, "r.yaml", {"name": "r", "extends": 5})
    with pytest.raises(RulesError, match="'extends'"):
        load_rules(path)


@pytest.mark.parametrize("ring", [["a"], ["a", "b"], ["a", "b", "c"]])
def test_a_cycle_of_extends_is_refused(tmp_path, ring):
    for name, base in zip(ring, ring[1:] + ring[:1], strict=True):
        write(tmp_path, f"{name}.yaml", {"name": name, "extends": str(tmp_path / f"{base}.yaml")})
    with pytest.raises(RulesError, match="cycle"):
        load_rules(tmp_path / "a.yaml")


def test_a_non_utf8_file_names_the_file(tmp_path):
    path = write(tmp_path, "latin.yaml", "name: caf\xe9\n".encode("latin-1"))
    with pytest.raises(RulesError, match=r"latin\.yaml.*UTF-8"):
        load_rules(path)


def test_three_decks_refused_at_every_table_size():
    data = load_rules("dead_last").to_dict() | {"decks": 3}
    with pytest.raises(RulesError, match="3 decks at 2 players"):
        load_rules(data)
    data = load_rules("harrogate").to_dict() | {"decks_from_players": {6: 2, 3: 3}}
    with pytest.raises(RulesError, match="3 decks at 3 players"):
        load_rules(data)


@pytest.mark.parametrize("spec", [5, None, 2.5, b"dead_last", ""])
def test_load_rules_of_a_bad_type(spec):
    with pytest.raises(RulesError, match="rules must be"):
        load_rules(spec)


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: Action.play("K", True), TypeError, "True"),
        (lambda: Action.play("K", 2.0), TypeError, "2.0"),
        (lambda: Action.play(True), TypeError, "True"),
        (lambda: Action.play(5.0), TypeError, "5.0"),
        (lambda: Action.play("Z"), ValueError, "'Z'"),
        (lambda: Action.play("K", 9), ValueError, "9"),
        (lambda: Action.face_up(None), TypeError, "None"),
        (lambda: Action.nominate(True), TypeError, "True"),
        (lambda: Action.nominate(1.0), TypeError, "1.0"),
        (lambda: Action.nominate(10), ValueError, "10"),
    ],
)
def test_action_constructors_name_the_bad_value(make, error, words):
    with pytest.raises(error, match=words):
        make()


# ---------------------------------------------------------------- properties

PROPERTY = settings(max_examples=120, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
GAMES = st.sampled_from(list(PLAYER_RANGE)).flatmap(
    lambda p: st.tuples(st.just(p), st.integers(2, min(PLAYER_RANGE[p][1], 6)), st.integers(0, 2**31 - 1))
)


def playable_or_named_error(build):
    """Build a game: a named error is fine; an accepted game must be playable to its end."""
    try:
        game = build()
    except (StateError, RulesError):
        return
    for now in random_positions(game, seed=0):  # fails if the game neither ends nor truncates
        assert now.is_over or now.legal_actions(), f"accepted a position where seat {now.current} has no legal action"


JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.floats(-2, 12), st.text(max_size=3), st.just([]), st.just({})
)


@PROPERTY
@given(GAMES, st.data())
def test_mutated_states_give_a_game_or_a_named_error(params, data):
    game = next(random_positions(*params, depth=400))
    d = json.loads(json.dumps(game.to_dict()))
    for _ in range(data.draw(st.integers(1, 3))):
        mutate = data.draw(st.sampled_from(["set", "drop", "extra", "card", "counter", "seat_zone"]))
        if mutate == "set":
            d[data.draw(st.sampled_from(sorted(d)))] = data.draw(JUNK)
        elif mutate == "drop":
            d.pop(data.draw(st.sampled_from(sorted(d))), None)
        elif mutate == "extra":
            d[data.draw(st.sampled_from(["cheat", "seat", "version"]))] = data.draw(JUNK)
        elif mutate == "counter":
            key = data.draw(st.sampled_from(["decisions", "max_decisions", "current", "dealer", "direction", "opener"]))
            d[key] = data.draw(st.integers(-2, 6000))
        else:
            players = d.get("players")
            if not isinstance(players, list) or not players or not isinstance(players[0], dict):
                continue
            seat = players[data.draw(st.integers(0, len(players) - 1))]
            if not isinstance(seat, dict):
                continue
            zone = data.draw(st.sampled_from(["hand", "face_up", "face_down", "known"]))
            cards = seat.get(zone) if isinstance(seat.get(zone), list) else []
            if mutate == "card":  # a duplicated, unknown or moved card
                extra = data.draw(st.sampled_from(["KS", "XR", "ZZ", "10H", 7, *(cards[:1] or ["2C"])]))
                seat[zone] = [*cards, extra]
            else:
                seat[zone] = cards[1:] if data.draw(st.booleans()) else []
    playable_or_named_error(lambda: Game.from_dict(d))


RULE_KEYS = [*load_rules("dead_last").to_dict(), "extends"]  # every key a rules file may hold


@PROPERTY
@given(st.sampled_from(list(PLAYER_RANGE)), st.data())
def test_mutated_rule_files_give_rules_or_a_named_error(preset, data):
    d = load_rules(preset).to_dict()
    for _ in range(data.draw(st.integers(1, 3))):
        key = data.draw(st.sampled_from(RULE_KEYS))
        if data.draw(st.booleans()):
            d.pop(key, None)
        else:
            d[key] = data.draw(st.one_of(JUNK, st.sampled_from(sorted(PLAYER_RANGE)), st.just({"min": 2, "max": 11})))
    try:
        rules = load_rules(d)
    except RulesError:
        return
    playable_or_named_error(lambda: Game.new(rules, rules.min_players, seed=0))


def redeal_hidden(game, observer, rng):
    """A copy with every card ``observer`` cannot see shuffled among the same slots.

    Hidden: other seats' hand cards outside ``known`` and every face-down card.
    Zone sizes, every seat's known cards and its narrowed ranks stay (a
    narrowed hand card gets a fitting card, as the determinizer deals); the
    draw pile stays (the observer's own draws must not differ).
    """
    d = game.to_dict()
    slots, pool = [], []
    for seat, p in enumerate(d["players"]):
        if seat != observer:
            unknown = list(p["hand"])
            for card in p["known"]:
                unknown.remove(card)
            pool += unknown
            slots.append((seat, "hand", len(unknown)))
        pool += p["face_down"]
        slots.append((seat, "face_down", len(p["face_down"])))
    for _ in range(50):
        shuffled = [pool[i] for i in rng.permutation(len(pool))]
        dealt = {}
        for seat, p in enumerate(d["players"]):
            if seat != observer:
                dealt[seat, "hand"] = []
                for ranks in sorted(p["narrowed"], key=len):
                    fitting = [i for i, card in enumerate(shuffled) if card[:-1] in ranks]
                    if not fitting:
                        break
                    dealt[seat, "hand"].append(shuffled.pop(fitting[0]))
        if all(len(dealt[seat, "hand"]) == len(d["players"][seat]["narrowed"]) for seat, _ in dealt):
            break
    else:
        return game.copy()  # no fitting shuffle found: the game itself is one redeal
    cards = iter(shuffled)
    for seat, zone, size in slots:
        p = d["players"][seat]
        mine = dealt.get((seat, zone), [])
        cards_dealt = mine + [next(cards) for _ in range(size - len(mine))]
        p[zone] = list(p["known"]) + cards_dealt if zone == "hand" else cards_dealt
    return Game.from_dict(d)


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["pub", "power_deck"]), st.integers(0, 2**31 - 1))
def test_a_hidden_redeal_changes_nothing_the_actor_sees_after_its_step(preset, seed):
    n = 2 + seed % (PLAYER_RANGE[preset][1] - 1)
    rng = np.random.default_rng(seed)
    game = next(random_positions(preset, n, seed, depth=120, rng=rng))
    compared = 0
    for _ in range(60):
        if game.is_over:
            break
        seat = game.current
        # A flip reveals the flipped card, and the end of the swap the lowest-card opener: both by the rules.
        legal = [a for a in game.legal_actions() if a.kind != "flip"] if game.phase != "swap" else []
        if legal:
            action = legal[int(rng.integers(len(legal)))]
            twin = redeal_hidden(game, seat, rng)
            assert twin.view(seat) == game.view(seat)
            game.step(action)
            twin.step(action)
            assert twin.view(seat) == game.view(seat), f"seat {seat} learned a hidden card from {action}"
            compared += 1
        else:
            game.step(game.legal_actions()[0])
    assert compared > 0 or game.is_over
