"""The server under abuse: other hosts and sites refused, actions applied once, limits per client, slow clients
dropped, and a heavy game's thinking never holding up the rest."""

from __future__ import annotations

import argparse
import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import httpx
import numpy as np
import pytest

from agents import http_app, serve
from agents.base import Bot
from agents.http_guard import BODY_SECONDS, HEADER_SECONDS, header_timeout_protocol, host_name
from agents.protocol import ProtocolError
from agents.serve import LOOPBACK, free_port, listen, running_server
from agents.served import spec_bot
from agents.sessions import Limits, Sessions
from agents.simple import GreedyBot
from shithead_env import Action, Game

CLIENT_SECONDS = 1.0  # the slow-client limits (header and body) of the test's own server
THINK_SECONDS = 2.0  # how long the heavy bot thinks
HEAD_START = 0.3  # its thought begins this long before the health requests do


@pytest.fixture(scope="module")
def client(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=60) as http:
        yield http


GAME = {"rules": "dead_last", "players": 2, "bots": "random", "seed": 3}


def test_host_names_are_read_without_their_port():
    assert [host_name(h) for h in ("LocalHost:8000", "127.0.0.1", "[::1]:80", "::1", "example.org")] == [
        "localhost", "127.0.0.1", "::1", "::1", "example.org"]  # fmt: skip


def test_a_host_the_server_does_not_answer_for_is_refused(client: httpx.Client) -> None:
    for host in ("rebind.evil.example", "evil.example:8000", "127.0.0.2"):
        reply = client.get("/v1/health", headers={"host": host})
        assert reply.status_code == 421 and reply.json()["error"]["code"] == "forbidden_host", host
    assert client.get("/v1/health", headers={"host": "localhost"}).status_code == 200


def test_state_changing_requests_from_another_site_are_refused(client: httpx.Client) -> None:
    evil = {"origin": "http://evil.example"}
    reply = client.post("/v1/games", json=GAME, headers=evil)
    assert reply.status_code == 403 and reply.json()["error"]["code"] == "forbidden_origin"
    own = client.post("/v1/games", json=GAME, headers={"origin": str(client.base_url).rstrip("/")})
    assert own.status_code == 201  # the browser table's own page
    game = own.json()["game"]
    assert client.delete(f"/v1/games/{game}", headers=evil).status_code == 403
    assert client.get(f"/v1/games/{game}", headers=evil).status_code == 200  # reading is CORS's business
    assert client.post("/v1/games", json=GAME).status_code == 201  # no Origin: curl, a frontend's backend
    assert client.delete(f"/v1/games/{game}").status_code == 204


def test_only_json_bodies_are_read(client: httpx.Client) -> None:
    for media in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {} if media is None else {"content-type": media}
        reply = client.post("/v1/games", content=b'{"rules": "pub", "players": 2}', headers=headers)
        assert reply.status_code == 415 and reply.json()["error"]["code"] == "unsupported_media_type", media
    charset = {"content-type": "application/json; charset=utf-8"}
    assert client.post("/v1/games", content=b'{"rules": "pub", "players": 2}', headers=charset).status_code == 201


def test_a_replayed_action_is_applied_once(client: httpx.Client) -> None:
    state = client.post("/v1/games", json=GAME).json()
    body = {"action": state["view"]["legal_actions"][0], "decisions": state["view"]["decisions"]}
    first = client.post(f"/v1/games/{state['game']}/actions", json=body)
    assert first.status_code == 200
    again = client.post(f"/v1/games/{state['game']}/actions", json=body)
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_decision"
    assert client.get(f"/v1/games/{state['game']}").json()["view"] == first.json()["view"]


def test_slow_headers_and_slow_bodies_are_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_app, "BODY_SECONDS", CLIENT_SECONDS)
    with served_in_process(header_timeout_protocol(CLIENT_SECONDS)) as server:
        check_slow_clients_are_cut_off(server, CLIENT_SECONDS)


def test_serve_runs_uvicorn_with_the_header_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """``shithead serve`` hands uvicorn the protocol the test above runs in process, at its default limit."""
    import uvicorn

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets: ran.update(config=self.config, sockets=sockets))
    monkeypatch.setattr(serve, "collect_bots", lambda models, extra: {})  # no bots to load: only the setup counts
    parser = argparse.ArgumentParser()
    serve.add_arguments(parser)
    assert serve.run(parser.parse_args(["--port", str(free_port()), "--workers", "1"])) == 0
    for sock in ran["sockets"]:
        sock.close()
    assert ran["config"].http.__name__ == header_timeout_protocol().__name__ and HEADER_SECONDS == BODY_SECONDS == 10


@contextlib.contextmanager
def served_in_process(protocol: type) -> Iterator[str]:
    """``shithead serve``'s app and uvicorn setup (no bots) in a thread of this process, whose module settings a test
    may lower; yields its base URL."""
    import uvicorn

    sock = listen(LOOPBACK, free_port())
    server = uvicorn.Server(uvicorn.Config(http_app.create_app({}), log_level="warning", access_log=False,
                                           http=protocol))  # fmt: skip
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the in-process server did not start"
            time.sleep(0.02)
        yield f"http://{LOOPBACK}:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


def check_slow_clients_are_cut_off(server: str, seconds: float) -> None:
    address = urlparse(server)
    host, port = address.hostname, address.port
    slow_headers = socket.create_connection((host, port))
    slow_headers.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never ends its headers
    slow_body = socket.create_connection((host, port))
    slow_body.sendall(b"POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")  # fmt: skip
    start = time.monotonic()
    for sock in (slow_headers, slow_body):
        sock.settimeout(seconds + 5)
    assert slow_headers.recv(1024) == b""  # closed by the server, nothing answered
    answer = b""
    while b"request_timeout" not in answer and (chunk := slow_body.recv(4096)):
        answer += chunk
    assert b" 408 " in answer.split(b"\r\n")[0] and b"request_timeout" in answer
    assert seconds <= time.monotonic() - start < seconds + 3
    for sock in (slow_headers, slow_body):
        sock.close()


def play_phase_view(seed: int) -> dict:
    """A seat's view at its first play-phase decision with a choice."""
    game = Game.new("dead_last", 2, seed=seed)
    rng = np.random.default_rng(seed)
    while game.phase != "play" or len(game.legal_actions()) < 2:
        legal = game.legal_actions()
        game.step(legal[int(rng.integers(len(legal)))])
    return game.view(game.current)


def test_health_answers_while_a_bot_thinks() -> None:
    with running_server(None, {"slow": f"ismcts:time={THINK_SECONDS:g}"}) as url, \
            httpx.Client(base_url=url, timeout=60) as http:  # fmt: skip
        done: dict[str, float] = {}

        def heavy() -> None:
            start = time.monotonic()
            assert http.post("/v1/bots/slow/act", json=play_phase_view(5)).status_code == 200
            done["seconds"] = time.monotonic() - start

        thinker = threading.Thread(target=heavy)
        thinker.start()
        time.sleep(HEAD_START)
        latencies = []
        while thinker.is_alive():
            start = time.monotonic()
            assert http.get("/v1/health").status_code == 200
            latencies.append(time.monotonic() - start)
            time.sleep(0.05)
        thinker.join()
        # A server the thought blocked would answer once, after it: one latency of THINK_SECONDS - HEAD_START or more.
        assert done["seconds"] >= THINK_SECONDS and len(latencies) >= 5, (done, latencies)
        assert max(latencies) < 0.8 * (THINK_SECONDS - HEAD_START), latencies
        assert sorted(latencies)[len(latencies) // 2] < THINK_SECONDS / 10, latencies  # most answer at once


class SlowBot(Bot):
    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        time.sleep(1.0)
        return game.legal_actions()[-1]


def test_a_bot_move_past_the_limit_is_replaced_by_greedys():
    served = spec_bot("slow", "random")
    served.bot = SlowBot()
    sessions = Sessions({"slow": served}, Limits(move_seconds=0.05))
    start = time.monotonic()
    session = sessions.create({"rules": "dead_last", "players": 2, "seat": 1, "bots": "slow", "seed": 2})
    assert session.late_moves >= 1 and time.monotonic() - start < 0.05 * session.late_moves + 0.5
    replay = Game.new("dead_last", 2, seed=2)
    while replay.current != 1:
        replay.step(GreedyBot().act_game(replay, replay.current, np.random.default_rng(0)))
    assert session.game.to_dict() == replay.to_dict()  # every one of the bot's moves was greedy's


def test_one_client_cannot_hold_every_game():
    bots = {"random": spec_bot("random", "random")}
    sessions = Sessions(bots, Limits(max_games=10, max_games_per_client=2))
    body = {"rules": "dead_last", "players": 2, "bots": "random"}
    sessions.create(body, "10.0.0.1")
    sessions.create(body, "10.0.0.1")
    with pytest.raises(ProtocolError, match="this client already holds 2 games") as refused:
        sessions.create(body, "10.0.0.1")
    assert refused.value.code == "too_many_client_games" and refused.value.status == 429
    sessions.create(body, "10.0.0.2")  # another client still can
    assert len(sessions.games) == 3
