"""Fixtures of the server tests: the toy game registered, a real app on a real SQLite file."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server tests need the 'web' extra")

import farmtable.core.registry as registry
from tests.toygame import RACE

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from farmtable.server import create_app
from farmtable.server.limits import Limits

TEST_LIMITS = Limits(allow_hosts=("testserver",), tables_per_minute=0, messages_per_second=0)
"""The default limits, but the test client's host name allowed, and no rate limits (bots play fast)."""

__all__ = [
    "TEST_LIMITS",
    "TestClient",
    "create_app",
    "move",
    "new_table",
    "seat_headers",
    "token",
    "undo",
    "version_of",
    "ws_open",
]


@pytest.fixture
def race(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the toy game "race" (with a secret number per player) for this test."""
    registry.list_games()
    monkeypatch.setitem(registry._GAMES, "race", RACE)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'server.db'}"


@pytest.fixture
def client(race: None, db_url: str) -> Iterator[TestClient]:
    """A client of the real app on a real SQLite file (AI seats move without delay)."""
    with TestClient(create_app(db_url, limits=TEST_LIMITS)) as c:
        yield c


def new_table(
    client: TestClient, game: str = "race", seats: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    """Open a table (default: race, you vs an invited friend, seed 3) and return the creation answer."""
    seats = seats or [{"kind": "you"}, {"kind": "invite"}]
    body = {"game": game, "players": len(seats), "seats": seats, "seed": 3, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def token(table: dict[str, Any], seat: int) -> str:
    """The secret token of a seat of a table just opened."""
    value = table["seats"][seat]["token"]
    assert isinstance(value, str)
    return value


def seat_headers(tok: str | None) -> dict[str, str]:
    """The header that carries a seat token (none: a spectator)."""
    return {"X-Seat-Token": tok} if tok else {}


def version_of(client: Any, table_id: str) -> int:
    """The table's current version as a spectator reads it (0 if the table cannot be read)."""
    data = client.get(f"/api/tables/{table_id}").json()
    return int(data.get("version", 0)) if isinstance(data, dict) else 0


def move(client: Any, table_id: str, tok: str, action: str, version: int | None = None) -> Any:
    """POST a move made at ``version`` (default: the table's current version); returns the response."""
    made_at = version_of(client, table_id) if version is None else version
    body = {"token": tok, "action": action, "version": made_at}
    return client.post(f"/api/tables/{table_id}/moves", json=body)


def undo(client: Any, table_id: str, tok: str, version: int | None = None) -> Any:
    """POST an undo asked at ``version`` (default: the table's current version); returns the response."""
    made_at = version_of(client, table_id) if version is None else version
    return client.post(f"/api/tables/{table_id}/undo", json={"token": tok, "version": made_at})


@contextlib.contextmanager
def ws_open(client: TestClient, table_id: str, tok: str | None = None) -> Iterator[Any]:
    """A WebSocket on the table that has said hello with the seat's token (none: a spectator)."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": tok})
        yield ws
