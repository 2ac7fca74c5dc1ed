"""``shithead serve`` for real: a uvicorn server on a loopback port, whole games and a fuzz over HTTP."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import pytest

from shithead_env import Action, Game, load_rules
from tests.helpers import random_positions

JSON = {"content-type": "application/json"}
MODEL = "dead_last_4p"
FUZZ_BODIES = 300
FUZZ_SECONDS = 30.0


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=30) as http:
        yield http


def test_health_bots_and_openapi(client: httpx.Client) -> None:
    assert client.get("/v1/health").json()["status"] == "ok"
    cards = {card["name"]: card for card in client.get("/v1/bots").json()["bots"]}
    assert {"random", "greedy", "heuristic", "ismcts", "ismcts8", MODEL} <= set(cards)
    assert cards[MODEL]["rules"] == ["dead_last"] and cards[MODEL]["policy"] is True
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/health", "/v1/bots", "/v1/bots/{name}/act"} <= set(paths)


def test_the_page_and_its_icon_are_served(client: httpx.Client) -> None:
    """``/favicon.ico``, where a browser looks for the icon unasked, is the page's icon, not a 404."""
    assert 'rel="icon" href="/web/favicon.svg"' in client.get("/").text
    for path in ("/favicon.ico", "/web/favicon.svg"):
        reply = client.get(path)
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("image/svg+xml"), path
        assert reply.text.startswith("<svg ")


def test_whole_games_over_http(client: httpx.Client) -> None:
    """Two 4-player games, every decision asked over HTTP (model, heuristic, ismcts, random)."""
    for seed, seats in ((1, [MODEL, "heuristic", "ismcts", "random"]), (2, ["ismcts8", MODEL, "greedy", "heuristic"])):
        game = Game.new(load_rules("dead_last"), 4, seed=seed)
        while not game.is_over:
            seat = game.current
            reply = client.post(f"/v1/bots/{seats[seat]}/act", content=json.dumps(game.view(seat)), headers=JSON)
            assert reply.status_code == 200, reply.text
            answer = reply.json()
            assert answer["bot"] == seats[seat] and answer["action"] in game.view(seat)["legal_actions"]
            game.step(Action.from_dict(answer["action"]))


def _hostile_bodies(view: dict[str, Any], rng: np.random.Generator) -> Iterator[bytes]:
    """Fixed nasty bodies, then random mutations of a real view (bounded)."""
    yield b""
    yield b"null"
    yield b"\xff\xfe\xfd"
    yield b"[" * 50_000 + b"]" * 10_000
    yield b'{"seat": ' + b"9" * 5_000 + b"}"
    yield b'{"seat": NaN, "hand": [Infinity]}'
    yield b"x" * 70_000
    yield json.dumps({**view, "hand": ["AS"] * 5_000}).encode()
    text = json.dumps(view).encode()
    junk: list[Any] = [None, -1, 0, 2**70, 1e308, "x", "", [], {}, True, 1.5, "9" * 300, ["ZZ"], [{"kind": "play"}]]
    keys = list(view)
    while True:
        kind = int(rng.integers(4))
        if kind == 0:  # truncate
            yield text[: int(rng.integers(len(text)))]
        elif kind == 1:  # flip bytes
            data = bytearray(text)
            for i in rng.integers(len(data), size=int(rng.integers(1, 6))):
                data[i] = int(rng.integers(256))
            yield bytes(data)
        else:  # replace or drop fields, at the top level or inside a player
            mutated = copy.deepcopy(view)
            for _ in range(int(rng.integers(1, 4))):
                target = mutated["players"][int(rng.integers(len(view["players"])))] if kind == 3 else mutated
                if not isinstance(target, dict) or not target:
                    break
                key = list(target)[int(rng.integers(len(target)))] if kind == 3 else keys[int(rng.integers(len(keys)))]
                if rng.random() < 0.2:
                    target.pop(key, None)
                else:
                    target[key] = junk[int(rng.integers(len(junk)))]
            yield json.dumps(mutated).encode()


def test_fuzz_the_server_keeps_answering(client: httpx.Client) -> None:
    """Malformed and hostile bodies: never a 5xx, always a JSON error with a message (or a legal action)."""
    rng = np.random.default_rng(5)
    game = next(g for g in random_positions(load_rules("dead_last"), 4, seed=5, rng=rng) if g.decisions == 30)
    view = game.view(game.current)
    started = time.monotonic()
    statuses: dict[int, int] = {}
    for i, body in enumerate(_hostile_bodies(view, rng)):
        if i >= FUZZ_BODIES or time.monotonic() - started > FUZZ_SECONDS:
            break
        name = (MODEL, "heuristic")[i % 2]
        reply = client.post(f"/v1/bots/{name}/act", content=body, headers={"content-type": "application/json"})
        statuses[reply.status_code] = statuses.get(reply.status_code, 0) + 1
        assert reply.status_code < 500, (body[:200], reply.text)
        answer = reply.json()
        if reply.status_code == 200:
            sent = json.loads(body)
            assert answer["action"] in sent["legal_actions"]
        else:
            assert 400 <= reply.status_code < 500 and answer["error"]["code"] and answer["error"]["message"]
    assert sum(statuses.values()) >= 100 and set(statuses) - {200} <= {400, 409, 413, 422}, statuses
    assert client.get("/v1/health").status_code == 200


@pytest.mark.parametrize(
    ("method", "url", "status", "code"),
    [
        ("POST", "/v1/bots/nobody/act", 404, "unknown_bot"),
        ("GET", f"/v1/bots/{MODEL}/act", 405, "http_error"),
        ("GET", "/v2/nothing", 404, "http_error"),
        ("POST", "/v1/bots/heuristic/act?seed=abc", 400, "invalid_request"),
        ("POST", "/v1/bots/heuristic/act?seed=-1", 400, "invalid_request"),
    ],
)
def test_http_errors_use_the_protocol_error_body(
    client: httpx.Client, method: str, url: str, status: int, code: str
) -> None:
    reply = client.request(method, url, content=b"{}", headers=JSON)
    assert reply.status_code == status
    assert reply.json()["error"]["code"] == code and reply.json()["error"]["message"]


def test_openapi_references_resolve_and_its_examples_are_real_requests(client: httpx.Client) -> None:
    """/redoc and Swagger read /openapi.json: every $ref must resolve in it, every example must be answered."""
    document = client.get("/openapi.json").json()

    def refs(node: object) -> list[str]:
        if isinstance(node, dict):
            return ([node["$ref"]] if "$ref" in node else []) + [r for v in node.values() for r in refs(v)]
        return [r for v in node for r in refs(v)] if isinstance(node, list) else []

    for ref in refs(document):
        target: object = document
        for part in ref.removeprefix("#/").split("/"):
            assert isinstance(target, dict) and part in target, ref
            target = target[part]
    paths = document["paths"]

    def example(path: str) -> object:
        return paths[path]["post"]["requestBody"]["content"]["application/json"]["example"]

    assert client.post("/v1/bots/heuristic/act", json=example("/v1/bots/{name}/act")).status_code == 200
    created = client.post("/v1/games", json=example("/v1/games"))
    assert created.status_code == 201, created.text


def test_the_seed_parameter_is_read_and_checked(client: httpx.Client) -> None:
    game = Game.new(load_rules("dead_last"), 4, seed=3)
    body = json.dumps(game.view(game.current))
    for seed in (str(2**63), "1e3", "", "+5"):
        reply = client.post(f"/v1/bots/random/act?seed={seed}", content=body, headers=JSON)
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "invalid_request", seed
    answers = {client.post("/v1/bots/random/act?seed=7", content=body, headers=JSON).text for _ in range(3)}
    assert len(answers) == 1  # the same seed, the same answer
    seeded = {client.post(f"/v1/bots/random/act?x=1&seed={s}", content=body, headers=JSON).json()["index"]
              for s in range(30)}  # fmt: skip
    assert len(seeded) > 1  # the seed drives the bot's choice


def test_the_request_validators_are_compiled_before_the_first_request() -> None:
    """A server's first requests do not wait tens of ms for a schema's validator to compile."""
    from agents.http_app import create_app
    from agents.protocol.handler import _validator

    _validator.cache_clear()
    create_app({})
    assert _validator.cache_info().currsize == 3  # view, game_create, game_action
