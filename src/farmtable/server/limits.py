"""The server's limits and the small tools that enforce them.

Everything one client can make the server hold or do is bounded: request bodies (counted as
they arrive), WebSocket messages (size, nesting depth, rate), sockets per client and per
table, tables created per client per minute, tables held in memory, and the thinking budget
of AI seats. :class:`Limits` carries the numbers (``farmtable serve`` sets them; the
defaults are safe for a small machine), :class:`Buckets` rate-limits per client.
"""

from __future__ import annotations

import ipaddress
import time
from dataclasses import dataclass, field
from typing import Any

LIGHT_AGENTS = ("random", "greedy")
"""Raw agent names a seat may take besides the levels (cheap: one pass over the legal moves)."""
SEARCH_PARAMS = frozenset({"iters", "time", "c", "rollout", "depth", "prior"})

CLOSE_TOO_BIG = 1009
"""WebSocket close code: a message over the size limit (RFC 6455 "message too big")."""
CLOSE_POLICY = 1008
"""WebSocket close code: messages sent faster than the rate limit, or nested too deep."""
CLOSE_BAD_HELLO = 4400
"""WebSocket close code: the first message was not a hello (or the token came in the address)."""
CLOSE_FORBIDDEN = 4403
"""WebSocket close code: the Origin or Host is not allowed, or the seat token is wrong."""
CLOSE_EXPIRED = 4401
"""WebSocket close code: the seat token has expired (``--token-days``)."""
CLOSE_NOT_FOUND = 4404
"""WebSocket close code: no such table."""
CLOSE_TOO_MANY = 4429
"""WebSocket close code: too many sockets from this client, or on this table."""


@dataclass(frozen=True)
class Limits:
    """Every bound the server enforces; ``0`` for a count means "no limit" (for tests and benchmarks)."""

    max_body: int = 64_000
    """Largest request body in bytes, counted as it arrives (with or without Content-Length)."""
    max_message: int = 4_096
    """Largest WebSocket message in bytes (a move is at most 500 characters)."""
    max_json_depth: int = 20
    """Deepest nesting of arrays/objects accepted in a body or message."""
    tables_per_minute: int = 20
    """Tables one client (IP address) may open per minute (a burst of this many, then refilled)."""
    max_tables: int = 400
    """Tables held in memory; the least recently used idle ones leave first (they stay stored)."""
    sockets_per_client: int = 32
    """Open WebSockets per client (IP address)."""
    sockets_per_table: int = 64
    """Open WebSockets per table (seats and spectators together)."""
    messages_per_second: float = 10.0
    """Messages per WebSocket per second (a burst of twice this); more closes the socket (1008)."""
    max_ai_iters: int = 2_000
    """Largest ``iters`` of a raw search spec (the named levels are always allowed)."""
    max_ai_seconds: float = 2.0
    """Largest ``time`` (seconds per decision) of a raw search spec."""
    levels_only: bool = False
    """Refuse raw agent specs: AI seats take only the named levels (and ``random``)."""
    replay_page: int = 40
    """Most replay frames per request."""
    hello_seconds: float = 10.0
    """How long a new WebSocket may take to send its hello before it is closed."""
    allow_hosts: tuple[str, ...] = field(default_factory=tuple)
    """Host names (besides localhost and IP addresses) the server answers to; ``*`` for any."""
    token_seconds: float = 30 * 86_400.0
    """How long a seat token acts after it was issued (``0``: forever); older ones get 401."""

    def check_agent(self, spec: str) -> str:
        """The agent spec to store for a seat, or ``ValueError`` saying why it is refused.

        A level name (``easy``/``normal``/``hard``/``expert``) is stored as the name, so its
        tuned spec applies; ``random`` and ``greedy`` are cheap; a raw ``ismcts`` spec must stay
        within ``max_ai_iters`` and ``max_ai_seconds`` (and is refused with ``levels_only``).
        """
        import farmtable.agents  # here, not at import: `farmtable serve --help` stays light
        from farmtable.agents.levels import LEVELS, is_level

        spec = spec.strip()
        if is_level(spec):
            return spec.lower()
        offered = ", ".join([*LEVELS, "random"])
        name, params = farmtable.agents.parse_spec(spec)
        if name in LIGHT_AGENTS and not params:
            if self.levels_only and name != "random":
                raise ValueError(f"this server offers only the AI levels: {offered}")
            return name
        if self.levels_only or name != "ismcts":
            raise ValueError(f"AI seats take one of the levels ({offered}) or a search spec within the budget")
        unknown = set(params) - SEARCH_PARAMS
        if unknown:
            raise ValueError(f"unknown search parameter {sorted(unknown)[0][:30]!r}")
        iters, seconds = params.get("iters"), params.get("time")
        if iters is not None and (not isinstance(iters, int) or iters > self.max_ai_iters):
            raise ValueError(f"iters must be a whole number of at most {self.max_ai_iters} on this server")
        if seconds is not None and (not isinstance(seconds, int | float) or seconds > self.max_ai_seconds):
            raise ValueError(f"time must be at most {self.max_ai_seconds} seconds on this server")
        depth = params.get("depth", 0)
        if not isinstance(depth, int) or depth > 1000:
            raise ValueError("depth must be a whole number of at most 1000")
        farmtable.agents.make(spec)  # every other parameter is checked by the agent itself
        return spec

    def host_allowed(self, host: str) -> bool:
        """True when a ``Host`` header (or an Origin's host) names this server: localhost, an IP
        address, or an ``--allow-host`` name. A DNS-rebinding page always comes with a domain name."""
        name = host.strip().lower()
        if name.startswith("["):  # [::1]:8000
            name = name[1 : name.find("]")] if "]" in name else name[1:]
        elif name.count(":") == 1:
            name = name.split(":", 1)[0]
        if not name:
            return False
        if "*" in self.allow_hosts or name == "localhost" or name in self.allow_hosts:
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True


class Buckets:
    """Token buckets by key (a client address): ``take(key)`` is False once its rate is spent."""

    def __init__(self, per_minute: float, burst: float | None = None, max_keys: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst if burst is not None else max(per_minute, 1.0)
        self.max_keys = max_keys
        self._state: dict[str, tuple[float, float]] = {}

    def take(self, key: str, now: float | None = None) -> bool:
        """Spend one token of ``key``'s bucket; False (nothing spent) when it is empty."""
        now = time.monotonic() if now is None else now
        tokens, last = self._state.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1.0:
            self._state[key] = (tokens, now)
            return False
        if len(self._state) >= self.max_keys and key not in self._state:
            self.forget_full(now)
        self._state[key] = (tokens - 1.0, now)
        return True

    def forget_full(self, now: float | None = None) -> None:
        """Drop the buckets that have refilled (they carry no information any more)."""
        now = time.monotonic() if now is None else now
        full = [k for k, (t, last) in self._state.items() if t + (now - last) * self.rate >= self.burst]
        for key in full:
            del self._state[key]
        if len(self._state) >= self.max_keys:  # a flood of addresses: start over rather than grow
            self._state.clear()


class Rate:
    """One token bucket (a WebSocket's message rate)."""

    def __init__(self, per_second: float) -> None:
        self.rate = per_second
        self.burst = max(2.0 * per_second, 1.0)
        self.tokens = self.burst
        self.last = time.monotonic()

    def take(self) -> bool:
        """Spend a token; False when the rate is exceeded."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


def json_too_deep(text: str | bytes, max_depth: int) -> bool:
    """True when ``text`` nests arrays/objects deeper than ``max_depth`` (strings are skipped).

    Checked before parsing, so a deeply nested message never reaches the recursive JSON parser.
    """
    data = text.encode("utf-8", "replace") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= max_depth:
        return False
    depth = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > max_depth:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def excerpt(value: Any, limit: int = 40) -> str:
    """A short, quoted excerpt of something a client sent, for an error message."""
    text = str(value)
    return repr(text if len(text) <= limit else text[:limit] + "…")


def agent_spec_to_run(stored: str, game: str | None = None, players: int | None = None) -> str:
    """The spec an AI seat runs: a level's current spec in ``game`` with ``players`` players (its
    per-game override, ``farmtable.agents.levels.level_spec``), else the stored raw spec."""
    from farmtable.agents.levels import is_level, level_spec

    return level_spec(stored, game, players) if is_level(stored) else stored
