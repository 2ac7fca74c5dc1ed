"""Game sessions (agents.sessions, /v1/games): whole games over real HTTP, leak probes, limits and hostile bodies."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import fastjsonschema
import httpx
import numpy as np
import pytest

from agents.base import make_bot
from agents.protocol import load_schema
from agents.protocol.spec import MAX_GAME_BODY_BYTES
from agents.served import spec_bot
from agents.sessions import Limits, Sessions
from shithead_env import Action, Game, determinize
from shithead_env.cards import card_names

JSON = {"content-type": "application/json"}
MODEL = "dead_last_4p"
CARD = re.compile(r'"([2-9TJQKA][CDHS]|X[RB])"')
validate_state = fastjsonschema.compile(load_schema("game_state"))
validate_response = fastjsonschema.compile(load_schema("response"))
validate_error = fastjsonschema.compile(load_schema("error"))


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=60) as http:
        yield http


def create(client: httpx.Client, **body: Any) -> dict[str, Any]:
    reply = client.post("/v1/games", json=body)
    assert reply.status_code == 201, reply.text
    validate_state(reply.json())
    return reply.json()


def hidden_from(game: Game, seat: int) -> set[str]:
    """Card names the seat may not see in the true game: others' unknown hand cards, face-down cards, the draw."""
    cards = card_names(game._draw)
    for s in range(game.num_players):
        cards += card_names(game.face_down[s])
        if s != seat:
            unknown = list(game.hands[s])
            for card in game.known[s]:
                unknown.remove(card)
            cards += card_names(unknown)
    return set(cards)


def test_a_whole_game_over_http_leaks_no_hidden_card(client: httpx.Client) -> None:
    """The server's game is replayed here with the same seed and bots: no response ever names a card
    that is hidden from the human seat in the true game at that moment; events are numbered without gaps."""
    seed, seat, names = 11, 1, [MODEL, "heuristic", "greedy"]
    state = create(client, rules="dead_last", players=4, seat=seat, bots=names, seed=seed, hint="heuristic")
    twin = Game.new("dead_last", 4, seed=seed)
    bots = {s: make_bot(spec) for s, spec in zip([0, 2, 3], [f"model:agents/pretrained/{MODEL}", *names[1:]],
                                                 strict=True)}  # fmt: skip
    rng = np.random.default_rng([seed, 1])
    expected_next = 0
    replies = 0
    while True:
        while not twin.is_over and twin.current != seat:
            twin.step(bots[twin.current].act_game(twin, twin.current, rng))
        assert state["view"] == twin.view(seat)  # the same game, seen from the human seat
        text = json.dumps(state)
        assert not set(CARD.findall(text)) & hidden_from(twin, seat), "a hidden card left the server"
        numbers = [e["n"] for e in state["events"]]
        assert numbers == list(range(expected_next, state["next_event"]))
        expected_next = state["next_event"]
        replies += 1
        if state["result"] is not None:
            break
        action = Action.from_dict(state["view"]["legal_actions"][-1])
        if replies == 3:
            hint = client.get(f"/v1/games/{state['game']}/hint")
            assert hint.status_code == 200
            validate_response(hint.json())
            assert abs(sum(p["probability"] for p in hint.json()["probabilities"]) - 1) < 1e-6
        reply = client.post(f"/v1/games/{state['game']}/actions",
                            json={"action": action.to_dict(), "decisions": state["view"]["decisions"]})  # fmt: skip
        assert reply.status_code == 200, reply.text
        validate_state(reply.json())
        state = reply.json()
        twin.step(action)
    assert twin.is_over and state["result"]["finish_order"] == twin.finish_order
    assert state["events"][-1]["kind"] == "game_over" and "shithead" in state["events"][-1]["text"]
    everything = client.get(f"/v1/games/{state['game']}", params={"since": 0}).json()
    assert [e["n"] for e in everything["events"]] == list(range(state["next_event"]))
    assert client.delete(f"/v1/games/{state['game']}").status_code == 204
    assert client.get(f"/v1/games/{state['game']}").status_code == 404


def test_refused_actions_change_nothing_and_say_why(client: httpx.Client) -> None:
    state = create(client, rules="pub", players=3, bots="greedy", seed=3)
    url = f"/v1/games/{state['game']}"
    before = client.get(url).json()
    now = state["view"]["decisions"]
    illegal = {"action": {"kind": "pickup"}, "decisions": now}
    replay = {"action": state["view"]["legal_actions"][0]}  # no decisions: could be applied twice
    stale = {"action": state["view"]["legal_actions"][0], "decisions": state["view"]["decisions"] + 5}
    cases = [
        (illegal, 422, "illegal_action", "pickup is not legal now: first choose your face-up cards"),
        (stale, 409, "stale_decision", "the action answers decision"),
        (replay, 422, "illegal_action", "body: must contain ['decisions'] properties"),
        ({"action": {"kind": "fly"}, "decisions": now}, 422, "illegal_action", "body.action"),
        ({"action": {"kind": "play", "rank": "K", "count": 99}, "decisions": now}, 422, "illegal_action",
         "body.action"),
        ({}, 422, "illegal_action", "body: must contain ['action', 'decisions']"),
        ([1, 2], 422, "illegal_action", "body: must be object"),
    ]
    for body, status, code, message in cases:
        reply = client.post(f"{url}/actions", json=body)
        assert reply.status_code == status, reply.text
        validate_error(reply.json())
        assert reply.json()["error"]["code"] == code and message in reply.json()["error"]["message"]
    assert client.post(f"{url}/actions", content=b"{not json", headers=JSON).json()["error"]["code"] == "malformed_json"
    big = b'{"action": {"kind": "pass"}, "pad": "' + b"x" * MAX_GAME_BODY_BYTES + b'"}'
    assert client.post(f"{url}/actions", content=big, headers=JSON).status_code == 413
    assert client.get(url).json() == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "pub", "players": 9}, "rules 'pub' allow 2-4 players, got 9"),
        ({"rules": "nope", "players": 3}, "body.rules: must be one of"),
        ({"rules": "pub", "players": 3, "seat": 3}, "body.seat must be 0..2, got 3"),
        ({"rules": "pub", "players": 3, "bots": ["greedy"]}, "body.bots names 1 bots for the 2 other seats"),
        ({"rules": "pub", "players": 3, "bots": "nobody"}, "no bot named 'nobody'"),
        ({"rules": "pub", "players": 3, "bots": MODEL}, f"bot '{MODEL}' is not made for pub with 3 players; its card "
         "covers dead_last 4"),
        ({"rules": "dead_last", "players": 3, "bots": MODEL}, "is not made for dead_last with 3 players"),
        ({"rules": "pub", "players": 3, "seed": -1}, "body.seed"),
        ({"rules": "pub", "players": 3, "extra": 1}, "must not contain"),
        ({"rules": "pub", "players": True}, "body.players"),
    ],
)
def test_bad_create_requests_are_422_with_the_field(client: httpx.Client, body: dict[str, Any], message: str) -> None:
    reply = client.post("/v1/games", json=body)
    assert reply.status_code == 422, reply.text
    validate_error(reply.json())
    assert reply.json()["error"]["code"] == "invalid_game" and message in reply.json()["error"]["message"]


def test_ids_are_unguessable_and_games_are_apart(client: httpx.Client) -> None:
    first = create(client, rules="dead_last", players=2, bots="random", seed=1)
    second = create(client, rules="dead_last", players=2, bots="random", seed=1)
    assert first["game"] != second["game"] and len(first["game"]) >= 22  # 128 random bits
    assert "seed" not in json.dumps(first)
    assert client.get("/v1/games").status_code == 405  # no listing of other people's games
    assert client.get(f"/v1/games/{first['game']}x").json()["error"]["code"] == "unknown_game"
    action = {"action": second["view"]["legal_actions"][0], "decisions": second["view"]["decisions"]}
    assert client.post(f"/v1/games/{second['game']}/actions", json=action).status_code == 200
    assert client.get(f"/v1/games/{first['game']}").json() == first  # untouched by the other game's move


def test_hostile_bodies_never_get_a_5xx(client: httpx.Client) -> None:
    state = create(client, rules="power_deck", players=3, bots="greedy", seed=5)
    url = f"/v1/games/{state['game']}"
    before = client.get(url).json()
    rng = np.random.default_rng(0)
    junk: list[Any] = [None, -1, 0, 2**70, 1e308, "x", "", [], {}, True, 1.5, "9" * 300, ["ZZ"], {"kind": "play"}]
    bodies = [b"", b"null", b"\xff\xfe", b"[" * 5000, b'{"action": NaN}']
    for _ in range(60):
        create_body: dict[str, Any] = {"rules": "pub", "players": 3, "bots": "greedy", "seed": 1, "hint": None}
        create_body[list(create_body)[int(rng.integers(5))]] = junk[int(rng.integers(len(junk)))]
        bodies.append(json.dumps(create_body).encode())
    for body in bodies:
        for path in ("/v1/games", f"{url}/actions"):
            reply = client.post(path, content=body, headers={"content-type": "application/json"})
            assert reply.status_code < 500, (path, body[:80], reply.text)
            if reply.status_code != 201:
                validate_error(reply.json())
    assert client.get(url).json() == before


# ------------------------------------------------------------ in-process: limits and the hidden re-deal
class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def table() -> tuple[Sessions, Clock]:
    clock = Clock()
    bots = {name: spec_bot(name, name) for name in ("random", "greedy")}
    return Sessions(bots, Limits(max_games=2, idle_seconds=60), clock), clock


def test_the_table_holds_few_games_and_forgets_idle_ones(table: tuple[Sessions, Clock]) -> None:
    from agents.protocol import ProtocolError

    sessions, clock = table
    body = {"rules": "dead_last", "players": 2, "bots": "random"}
    first, second = sessions.create(body), sessions.create(body)
    with pytest.raises(ProtocolError, match="already holds 2 games") as refused:
        sessions.create(body)
    assert refused.value.code == "too_many_games" and refused.value.status == 503
    clock.now = 59.0
    sessions.get(second.id)  # reading a game does not keep it
    move = {"action": first.game.legal_actions()[0].to_dict(), "decisions": first.game.decisions}
    sessions.act(first.id, move)  # the human's action restarts its idle clock
    clock.now = 61.0
    with pytest.raises(ProtocolError) as gone:
        sessions.get(second.id)
    assert gone.value.code == "unknown_game"
    third = sessions.create(body)  # the idle one made room
    assert set(sessions.games) == {first.id, third.id}


def test_a_hidden_redeal_changes_nothing_the_human_receives(table: tuple[Sessions, Clock]) -> None:
    """Swap every card hidden from the human for another consistent deal: the answer is byte-identical."""
    sessions, _ = table
    session = sessions.create({"rules": "power_deck", "players": 3, "seat": 2, "bots": "greedy", "seed": 4})
    rng = np.random.default_rng(0)
    for _ in range(6):
        session.act(session.game.legal_actions()[0], session.game.decisions)
    answer = json.dumps(session.state(since=0))
    for _ in range(5):
        redealt = determinize(session.game.view(2), rng)
        redealt.events = session.game.events
        true_game, session.game = session.game, redealt
        assert json.dumps(session.state(since=0)) == answer
        session.game = true_game


def test_since_out_of_range_is_400(client: httpx.Client) -> None:
    state = create(client, rules="dead_last", players=2, bots="random", seed=2)
    for since in (-1, state["next_event"] + 1):
        reply = client.get(f"/v1/games/{state['game']}", params={"since": since})
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "invalid_request"
        assert f"since must be 0..{state['next_event']}" in reply.json()["error"]["message"]
    assert client.get(f"/v1/games/{state['game']}", params={"since": "x"}).status_code == 400


def test_the_human_is_never_asked_when_passing_is_all_it_can_do(table: tuple[Sessions, Clock]) -> None:
    """pub's interrupt windows ask every seat out of turn; a seat that cannot use one has nothing to decide."""
    sessions, _ = table
    rng = np.random.default_rng(0)
    prompts = 0
    for seed in range(2):
        session = sessions.create({"rules": "pub", "players": 3, "bots": "greedy", "seed": seed})
        while not session.game.is_over:
            legal = session.game.legal_actions()
            assert legal != [Action.pass_()], f"seed {seed}: asked to decide a lone pass"
            session.act(legal[int(rng.integers(len(legal)))], session.game.decisions)
            prompts += 1
        sessions.delete(session.id)
    assert prompts > 20
