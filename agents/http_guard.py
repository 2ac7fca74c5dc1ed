"""What ``shithead serve`` refuses before any endpoint runs: other hosts' names, other sites' pages, non-JSON bodies.

A server on loopback is still reachable from every web page the machine's
browser opens: a page can POST to ``http://127.0.0.1:8000`` (a "simple"
cross-site request needs no CORS preflight), and a DNS-rebinding page can even
read the answers under its own host name. So, as an ASGI middleware:

- **Host allow-list.** The ``Host`` header must name a host the server answers
  for: the loopback names by default (``localhost``, ``127.0.0.1``, ``::1``),
  plus ``--allow-host`` names (a deployment's public name; ``*`` turns the
  check off behind a proxy that checks it). Otherwise 421 ``forbidden_host``.
- **Origin check** on state-changing requests (POST, PUT, PATCH, DELETE): a
  request that carries an ``Origin`` must come from this server's own origin or
  one allowed by ``--allow-origin``. Otherwise 403 ``forbidden_origin``.
  Requests without ``Origin`` (curl, another server, a frontend's backend) pass.
- **JSON bodies only**: a POST, PUT or PATCH must say ``Content-Type:
  application/json``. Otherwise 415 ``unsupported_media_type``; a cross-site
  form cannot send that type without a preflight, which CORS then refuses.
- **Slow clients**: a connection whose request headers are not complete
  ``HEADER_SECONDS`` after it opened (or after its previous response) is
  closed (``header_timeout_protocol``, uvicorn's own has no such limit); a body
  slower than ``BODY_SECONDS`` is refused by the endpoints (``request_timeout``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Collection, MutableMapping, Sequence
from typing import Any

from agents.protocol.handler import error_body

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
ANY_HOST = "*"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
HEADER_SECONDS = 10.0
BODY_SECONDS = 10.0

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def host_name(host: str) -> str:
    """``example.org:8000`` -> ``example.org``; ``[::1]:8000`` -> ``::1``; lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class RequestGuard:
    """The checks of the module doc, in front of ``app``."""

    def __init__(self, app: Any, hosts: Collection[str], origins: Collection[str] = ()) -> None:
        self.app = app
        self.any_host = ANY_HOST in hosts
        self.hosts = {host_name(h) for h in hosts if h != ANY_HOST}
        self.origins = {o.rstrip("/").lower() for o in origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            host = media = b""
            origin = None
            for key, value in scope["headers"]:  # three headers, read as they come: no dict per request
                if key == b"host":
                    host = value
                elif key == b"origin":
                    origin = value
                elif key == b"content-type":
                    media = value
            refusal = self.refusal(scope["method"], scope.get("scheme", "http"), host, origin, media)
            if refusal is not None:
                status, code, message = refusal
                await send_json(send, status, error_body(code, message))
                return
        await self.app(scope, receive, send)

    def refusal(
        self, method: str, scheme: str, host_header: bytes, origin_header: bytes | None, media_header: bytes
    ) -> tuple[int, str, str] | None:
        """(status, code, message) of the first check the request fails, or None; the headers as sent (no Origin:
        None, no Host or Content-Type: empty)."""
        host = host_header.decode("latin-1")
        if not self.any_host and host_name(host) not in self.hosts:
            allowed = ", ".join(sorted(self.hosts))
            return 421, "forbidden_host", f"this server answers for {allowed}, not Host {host!r} (see --allow-host)"
        if origin_header is not None and method in STATE_CHANGING:
            origin = origin_header.decode("latin-1")
            if origin.rstrip("/").lower() not in self.origins | {f"{scheme}://{host}".lower()}:
                return 403, "forbidden_origin", f"a {method} from a page of {origin} is refused (see --allow-origin)"
        if method in WITH_BODY:
            media = media_header.decode("latin-1").split(";")[0].strip().lower()
            if media != "application/json":
                return 415, "unsupported_media_type", f"the body must be application/json, not {media or 'untyped'}"
        return None


def json_bytes(body: Any) -> bytes:
    """A JSON body as the server sends every answer: compact UTF-8."""
    return json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


async def send_json(send: Send, status: int, body: Any, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """Answer with ``body`` as JSON in two ASGI messages (the guard's refusals and the bot endpoint's answers)."""
    data = json_bytes(body)
    start = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data)), *headers]
    await send({"type": "http.response.start", "status": status, "headers": start})
    await send({"type": "http.response.body", "body": data})


def header_timeout_protocol(seconds: float = HEADER_SECONDS) -> type:
    """uvicorn's httptools protocol, closing a connection whose request headers take longer than ``seconds``."""
    import asyncio

    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _start_header_timer(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self.transport.close)

        def _stop_header_timer(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._start_header_timer()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._start_header_timer()

        def on_headers_complete(self) -> None:
            self._stop_header_timer()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_header_timer()
            super().connection_lost(exc)

    return HeaderTimeoutProtocol
