"""Fixtures for the agent tests: the toy game registered for the test session only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.agents import toy


@pytest.fixture(scope="session", autouse=True)
def toy_game() -> Iterator[str]:
    """Register the toy game while these tests run, then take it out of the registry again."""
    toy.register()
    yield toy.GAME_ID
    toy.unregister()
