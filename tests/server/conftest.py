"""Fixtures of the server tests: the toy game registered, a real app on a real SQLite file."""

from __future__ import annotations

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

__all__ = ["TestClient", "create_app", "new_table", "token"]


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
    with TestClient(create_app(db_url)) as c:
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
