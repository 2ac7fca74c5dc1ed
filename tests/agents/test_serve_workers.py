"""``shithead serve --workers 2`` for real: one game whose requests alternate between the two workers plays to its
end exactly as one process plays it, and a decision answered on one worker is refused as stale on the other."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import numpy as np
import pytest

from agents.serve import running_server
from agents.served import spec_bot
from agents.sessions import Sessions

GAME = {"rules": "dead_last", "players": 3, "seat": 1, "bots": ["greedy", "random"], "seed": 12}
MAX_TRIES = 200  # new connections tried to reach the other worker (each lands on one at random)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """A real server of two workers (built-in bots only) on a loopback port."""
    with running_server(None, workers=2) as base:
        yield base


@contextmanager
def on_worker(url: str, avoid: int | None) -> Iterator[tuple[httpx.Client, int]]:
    """A connection to a worker other than ``avoid``, and that worker's number."""
    for _ in range(MAX_TRIES):
        with httpx.Client(base_url=url, timeout=60) as http:  # one connection, one worker
            worker = http.get("/v1/health").json()["worker"]
            if worker != avoid:
                yield http, worker
                return
    raise AssertionError(f"no connection reached a worker other than {avoid} in {MAX_TRIES} tries")


def shown(state: dict[str, Any]) -> dict[str, Any]:
    """A game state without its id (the replay's game has another)."""
    return {key: value for key, value in state.items() if key != "game"}


def test_one_game_across_two_workers_plays_to_its_end_as_one_process_does(url: str) -> None:
    replay = Sessions({name: spec_bot(name, name) for name in ("greedy", "random")})
    rng = np.random.default_rng(4)
    with on_worker(url, None) as (http, worker):
        created = http.post("/v1/games", json=GAME)
    assert created.status_code == 201, created.text
    state, game = created.json(), created.json()["game"]
    expected = replay.create(GAME)
    assert shown(state) == shown(expected.state())
    workers = [worker]
    while state["result"] is None:
        legal = state["view"]["legal_actions"]
        body = {"action": legal[int(rng.integers(len(legal)))], "decisions": state["view"]["decisions"]}
        with on_worker(url, workers[-1]) as (http, worker):
            reply = http.post(f"/v1/games/{game}/actions", json=body)
        assert reply.status_code == 200, reply.text
        workers.append(worker)
        state = reply.json()
        assert shown(state) == shown(replay.act(expected.id, body))
    assert len(workers) > 10 and set(workers) == {0, 1}
    assert all(a != b for a, b in itertools.pairwise(workers))  # every request on the other worker
    assert state["result"]["finish_order"] == list(replay.get(expected.id).game.finish_order)
    with on_worker(url, workers[-1]) as (http, _):
        again = http.post(f"/v1/games/{game}/actions", json=body)  # the last decision, sent to the other worker
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_decision"
    with on_worker(url, None) as (http, _):
        assert http.get(f"/v1/games/{game}").json()["view"] == state["view"]  # the refusal changed nothing


def test_a_decision_is_applied_once_when_two_workers_race_for_it(url: str) -> None:
    """The same action on both workers at once: one answer applies it, the other is ``stale_decision``."""
    with on_worker(url, None) as (http, _):
        state = http.post("/v1/games", json={**GAME, "bots": "greedy"}).json()
    body = {"action": state["view"]["legal_actions"][0], "decisions": state["view"]["decisions"]}
    statuses: list[int] = []

    def send(http: httpx.Client) -> None:
        statuses.append(http.post(f"/v1/games/{state['game']}/actions", json=body).status_code)

    with on_worker(url, None) as (first, seen), on_worker(url, seen) as (second, _):
        racers = [threading.Thread(target=send, args=(http,)) for http in (first, second)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join()
    assert sorted(statuses) == [200, 409], statuses
