"""Fixtures for the agent tests: the toy game registered for the test session only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.agents import toy


@pytest.fixture(scope="module", autouse=True)
def toy_game() -> Iterator[str]:
    """Register the toy game for one test module, then take it out again (other tests see only the real games)."""
    toy.register()
    yield toy.GAME_ID
    toy.unregister()
