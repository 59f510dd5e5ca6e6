"""The outermost layer of the app (plain ASGI): Host and Origin checks, request bodies counted as
they arrive, JSON nesting bounded, and security headers on every answer.

- **Host**: the server answers only to localhost, IP addresses and the ``--allow-host`` names, so a
  web page on an attacker's domain that rebinds its DNS to 127.0.0.1 (DNS rebinding) gets 403.
- **Origin**: a browser's WebSocket or POST from another site (its ``Origin`` is not this server)
  is refused; clients that send no Origin (scripts, the tests) are not browsers and pass.
- **Bodies**: read chunk by chunk, with or without ``Content-Length``; the first byte over the
  limit ends the request with 413 (nothing more is read, nothing is echoed).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from farmtable.server.limits import Limits, json_too_deep

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


class Guard:
    """ASGI middleware enforcing the Host/Origin allow-list, the body limit and the security headers."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check one HTTP request or WebSocket before the app sees it."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        problem = None
        if not self.limits.host_allowed(host):
            problem = f"this server does not answer to the host {host[:60]!r}; start it with --allow-host NAME"
        elif (
            "origin" in headers
            and (kind == "websocket" or scope.get("method") in BODY_METHODS)
            and not self._origin_ok(headers["origin"], host)
        ):
            problem = f"requests from the page at {headers['origin'][:60]!r} are not allowed here"
        if problem is not None:
            if kind == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 4403, "reason": problem[:120]})
            else:
                await _json(send, 403, problem)
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)

        if scope.get("method") not in BODY_METHODS:
            await self.app(scope, receive, send_with_headers)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_body:
                await _json(send, 413, f"the request body is larger than {self.limits.max_body} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if json_too_deep(body, self.limits.max_json_depth):
            await _json(send, 400, f"the request body nests deeper than {self.limits.max_json_depth} levels")
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send_with_headers)

    def _origin_ok(self, origin: str, host: str) -> bool:
        """True when a browser's ``Origin`` is this server itself (same host and port) or an allowed name."""
        netloc = urlsplit(origin).netloc.lower() if origin != "null" else ""
        if not netloc:
            return False
        if netloc == host.lower():
            return True
        name = netloc.rsplit(":", 1)[0] if not netloc.endswith("]") else netloc
        return "*" in self.limits.allow_hosts or name in self.limits.allow_hosts


async def _json(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode("utf-8")
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *SECURITY_HEADERS]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
