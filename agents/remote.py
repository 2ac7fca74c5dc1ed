"""``remote``: a bot served anywhere over the JSON bot protocol, called by its URL.

``remote:http://HOST:PORT/v1/bots/NAME`` (or the bare URL, which ``make_bot``
reads as this spec) posts the seat's view, and nothing else, to ``URL/act``
(docs/protocol.md) and plays the action it answers. So a bot written in any
language, served by any HTTP server that speaks protocol version 1, can sit at
a table of the harness or of ``shithead bench``.

Each request carries a ``seed`` drawn from the harness's generator for that
seat, so a seeded server (``shithead serve``) gives the same answers on a
rerun. A move that takes longer than ``timeout`` seconds raises
``MoveTimeout``; an answer that is no action of the view, or an HTTP error,
raises ``RemoteError``: the bench's guard (``agents.guard``) counts them
and plays its documented default instead.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

import numpy as np

from agents.base import URL_PREFIXES, Bot
from agents.protocol.spec import MAX_SEED
from shithead_env import Action

MOVE_SECONDS = 10.0  # a served bot's longest think about one move: shithead bench's and shithead serve's default


class RemoteError(RuntimeError):
    """The remote bot answered with an error, a body that is no action, or not at all."""


class MoveTimeout(RemoteError):
    """The remote bot took longer than its time limit for one move."""


class RemoteBot(Bot):
    """A bot behind a URL: the view goes out, the action comes back (module doc)."""

    def __init__(self, url: str, timeout: float = MOVE_SECONDS) -> None:
        if not url.startswith(URL_PREFIXES):
            raise ValueError(f"remote bot URL must start with http:// or https://, got {url!r}")
        if not timeout > 0:
            raise ValueError(f"remote bot timeout must be > 0 seconds, got {timeout}")
        self.url = url.rstrip("/")
        self.timeout = timeout

    def act(self, view: Mapping[str, Any], rng: np.random.Generator) -> Action:
        seed = int(rng.integers(MAX_SEED, endpoint=True))
        request = urllib.request.Request(
            f"{self.url}/act?seed={seed}",
            data=json.dumps(view).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        start = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                body = json.loads(response.read())
        except TimeoutError:
            raise MoveTimeout(f"{self.url} did not answer within {self.timeout:g} s") from None
        except urllib.error.HTTPError as error:
            raise RemoteError(f"{self.url} answered HTTP {error.code}: {_error_message(error)}") from None
        except (urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, TimeoutError):
                raise MoveTimeout(f"{self.url} did not answer within {self.timeout:g} s") from None
            raise RemoteError(f"{self.url} could not be asked: {reason}") from None
        if time.perf_counter() - start > self.timeout:
            raise MoveTimeout(f"{self.url} answered after the {self.timeout:g} s limit")
        try:
            return Action.from_dict(body["action"])
        except (KeyError, TypeError, ValueError) as error:
            raise RemoteError(f"{self.url} answered no action: {error}") from None

    def remote_card(self) -> dict[str, Any] | None:
        """The served bot's card (``GET .../v1/bots``), or None when the server lists none for it."""
        listing, _, name = self.url.rpartition("/")
        try:
            with urllib.request.urlopen(listing, timeout=self.timeout) as response:
                cards = json.loads(response.read()).get("bots", [])
        except (OSError, ValueError, AttributeError):
            return None
        return next((card for card in cards if isinstance(card, dict) and card.get("name") == name), None)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        """Every network the served bot's card lists: which of them play at a table, a listing does not say."""
        from agents.onnx_bot import card_networks

        return card_networks(self.remote_card() or {})


def _error_message(error: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(error.read())["error"]["message"])
    except (ValueError, KeyError, TypeError):
        return error.reason
