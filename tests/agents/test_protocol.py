"""The JSON bot protocol: schema files, answers on real views, and a clear error for every kind of bad input."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import fastjsonschema
import numpy as np
import pytest

from agents.base import Bot, make_bot
from agents.protocol import ERRORS, PROTOCOL_VERSION, ProtocolError, act_json, handle_request, load_schema
from agents.protocol.spec import MAX_BODY_BYTES, SCHEMAS, schema_text
from shithead_env import Action, Game, load_rules

MODEL = "model:agents/pretrained/dead_last_4p"
MAX_DECISIONS = 300  # per game: bounds the test's time whoever plays
BOTS = ["random", "greedy", "heuristic", "ismcts:sims=8", "guided:sims=8,batch=4", "lookahead:samples=4", MODEL]

validate_response = fastjsonschema.compile(load_schema("response"))
validate_error = fastjsonschema.compile(load_schema("error"))


@pytest.fixture(scope="module")
def bots() -> dict[str, Bot]:
    return {spec: make_bot(spec) for spec in BOTS}


def _view(rules: str = "dead_last", players: int = 4, seed: int = 0, moves: int = 20) -> dict[str, Any]:
    """The view of the seat to act after ``moves`` greedy-bot decisions."""
    game = Game.new(load_rules(rules), players, seed=seed)
    bot = make_bot("greedy")
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        game.step(bot.act_game(game, game.current, rng))
    return game.view(game.current)


def test_schema_files_are_generated_and_current() -> None:
    for name in SCHEMAS:
        text = (Path("agents/protocol/schema") / f"{name}.schema.json").read_text()
        assert text == schema_text(name), f"run python -m agents.protocol.spec --write ({name})"


@pytest.mark.parametrize("spec", BOTS)
def test_whole_games_through_the_protocol(spec: str, bots: dict[str, Bot]) -> None:
    """Every decision of a 4-player game answered through handle_request: valid, legal, probabilities sum to 1."""
    bot = bots[spec]
    game = Game.new(load_rules("dead_last"), 4, seed=11)
    while not game.is_over and game.decisions < MAX_DECISIONS:
        view = game.view(game.current)
        reply = handle_request(bot, json.dumps(view))
        assert reply.ok, reply.body
        validate_response(reply.body)
        action = Action.from_dict(reply.body["action"])
        assert action in game.legal_actions() and action.index == reply.body["index"]
        probs = [p["probability"] for p in reply.body["probabilities"]]
        assert [p["action"] for p in reply.body["probabilities"]] == view["legal_actions"]
        assert sum(probs) == pytest.approx(1.0)
        chosen = probs[view["legal_actions"].index(reply.body["action"])]
        if spec.startswith(("model:", "ismcts", "guided", "lookahead")):  # a policy's distribution, a search's shares
            assert chosen == max(probs)
        else:  # neither: probability 1 on the chosen action
            assert chosen == 1.0
        game.step(action)


def test_same_request_same_answer_and_library_call(bots: dict[str, Bot]) -> None:
    view = _view()
    bot = bots["ismcts:sims=8"]
    body = json.dumps(view)
    assert handle_request(bot, body).body == handle_request(bot, body.encode()).body
    assert act_json(bot, view, seed=3) == handle_request(bot, view, seed=3).body
    with pytest.raises(ProtocolError, match="not valid JSON") as caught:
        act_json(bot, "{")
    assert caught.value.code == "malformed_json" and caught.value.status == 400


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    def change(view: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = view
        for key in parents:
            target = target[int(key)] if key.isdigit() else target[key]
        target[int(last) if last.isdigit() else last] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], Any]:
    return lambda view: view.pop(key)


# (case, change to a valid view or a raw body, error code, words the message must contain)
BAD: list[tuple[str, Any, str, str]] = [
    ("not json", b"{'seat': 0", "malformed_json", "not valid JSON"),
    ("not utf-8", b"\xff\xfe\x00", "malformed_json", "not valid JSON"),
    ("deep nesting", b"[" * 100_000 + b"]" * 100_000, "body_too_large", "limit"),
    ("a list", b"[1, 2]", "invalid_view", "JSON object"),
    ("empty object", b"{}", "invalid_view", "must contain"),
    ("unknown card", _set("hand.0", "ZZ"), "invalid_view", "view.hand[0]"),
    ("lower-case card", _set("pile", ["ks"]), "invalid_view", "view.pile[0]"),
    ("missing key", _drop("legal_actions"), "invalid_view", "legal_actions"),
    ("extra key", _set("cheat", True), "invalid_view", "cheat"),
    ("seat out of range", _set("seat", 12), "invalid_view", "view.seat"),
    ("boolean seat", _set("seat", True), "invalid_view", "view.seat"),
    ("string count", _set("draw_pile", "3"), "invalid_view", "view.draw_pile"),
    ("bad action", _set("legal_actions", [{"kind": "play", "rank": "K"}]), "invalid_view", "legal_actions"),
    ("unknown preset", _set("rules", "poker"), "unsupported_rules", "poker"),
    ("seat count", _set("num_players", 5), "invalid_view", "num_players"),
    ("not its turn", lambda v: v.update(seat=(v["current"] + 1) % 4, legal_actions=[]), "no_legal_action", "seat"),
    ("game over", lambda v: v.update(phase="over", current=None), "no_legal_action", "no decision"),
    ("lying legal actions", _set("legal_actions", [{"kind": "flip"}]), "invalid_view", "disagree"),
    ("too many copies", lambda v: v["burned"].extend(v["hand"] * 2), "invalid_view", "consistent"),
    ("hidden count", _set("draw_pile", 60), "invalid_view", "consistent"),
    ("float seat", lambda v: v.update(seat=float(v["seat"])), "invalid_view", "view.seat"),
    ("float direction", _set("direction", 1.0), "invalid_view", "view.direction"),
    (
        "float hand size",
        lambda v: v["players"][1].update(hand_size=float(v["players"][1]["hand_size"])),
        "invalid_view",
        "hand_size",
    ),
    ("active but finished", lambda v: v["players"][1].update(active=False), "invalid_view", "active"),
]


@pytest.mark.parametrize(("case", "change", "code", "words"), BAD, ids=[b[0] for b in BAD])
def test_bad_input_gets_a_clear_error(case: str, change: Any, code: str, words: str, bots: dict[str, Bot]) -> None:
    if isinstance(change, bytes):
        body: Any = change
    else:
        view = copy.deepcopy(_view())
        change(view)
        body = json.dumps(view)
    for spec in ("heuristic", MODEL):
        reply = handle_request(bots[spec], body)
        validate_error(reply.body)
        assert reply.body["error"]["code"] == code, (case, reply.body)
        assert reply.status == ERRORS[code][0] and 400 <= reply.status < 500
        assert words in reply.body["error"]["message"], reply.body


def test_model_refuses_rules_it_was_not_trained_on(bots: dict[str, Bot]) -> None:
    body = json.dumps(_view(rules="pub"))
    assert handle_request(bots["heuristic"], body).ok
    reply = handle_request(bots[MODEL], body)
    assert reply.body["error"]["code"] == "unsupported_rules"
    assert "'pub'" in reply.body["error"]["message"] and "dead_last" in reply.body["error"]["message"]


def test_body_size_limit(bots: dict[str, Bot]) -> None:
    reply = handle_request(bots["random"], b" " * (MAX_BODY_BYTES + 1))
    assert reply.status == 413 and reply.body["protocol"] == PROTOCOL_VERSION


class _Cheater(Bot):
    def act(self, view: Mapping[str, Any], rng: np.random.Generator) -> Action:
        return Action.pass_()


def test_a_bot_never_answers_an_illegal_action() -> None:
    reply = handle_request(_Cheater(), json.dumps(_view()), name="cheater")
    assert reply.status == 500 and reply.body["error"]["code"] == "bot_failure"
    assert "not a legal action" in reply.body["error"]["message"]


def test_every_error_code_is_documented() -> None:
    text = Path("docs/protocol.md").read_text()
    for code, (status, _) in ERRORS.items():
        assert f"| `{code}` | {status}" in text, code


def _burn_first_hand_card(view: dict[str, Any]) -> None:
    view["burned"], view["hand"] = view["hand"][:1], view["hand"][1:]
    view["players"][view["seat"]]["hand_size"] -= 1
    view["legal_actions"] = [
        {"kind": "face_up", "rank": r} for r in sorted({c[0] for c in view["hand"]}, key="23456789TJQKA".index)
    ]


SWAP_BAD: list[tuple[str, Callable[[dict[str, Any]], Any], str]] = [
    ("forced rank in the swap", _set("forced_rank", "4"), "forced_rank"),
    ("known card in the swap", lambda v: v["players"][v["seat"]].update(known=v["hand"][:1]), "known"),
    ("burned card in the swap", lambda v: _burn_first_hand_card(v), "before any play"),
]


@pytest.mark.parametrize(("case", "change", "words"), SWAP_BAD, ids=[b[0] for b in SWAP_BAD])
def test_impossible_swap_views_are_4xx_not_bot_failures(
    case: str, change: Any, words: str, bots: dict[str, Bot]
) -> None:
    # Each passes the schema; the round trip must refuse it, or the ISMCTS determinizer would crash with a 500.
    view = copy.deepcopy(_view(moves=0))
    assert view["phase"] == "swap"
    change(view)
    for spec in ("heuristic", "ismcts:sims=5"):
        bot = bots.get(spec) or make_bot(spec)
        reply = handle_request(bot, json.dumps(view))
        assert 400 <= reply.status < 500, (case, reply.body)
        assert reply.body["error"]["code"] == "invalid_view"
        assert words in reply.body["error"]["message"], reply.body


def test_only_a_policy_method_reports_probabilities():
    from agents.protocol import reports_policy
    from agents.simple import GreedyBot

    class Labelled(GreedyBot):
        policy = "a label, not a method"

    assert reports_policy(make_bot("ismcts:sims=8")) and not reports_policy(make_bot("greedy"))
    assert not reports_policy(Labelled())  # the runtime-checkable Protocol it replaces took this for a policy
