"""Which games the RL tests run on: a game is covered once it is ready and has an RL description."""

from __future__ import annotations

from pathlib import Path

import pytest

import farmtable

DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"


def ready_or_skip(game_id: str) -> None:
    """Skip (with the reason) a game that is not ready or has no RL catalogue yet."""
    if not (DOCS / f"{game_id}.md").exists():
        pytest.skip(f"{game_id} is not ready: docs/games/{game_id}.md does not exist yet")
    pytest.importorskip("numpy", reason="the rl extra is not installed")
    from farmtable.rl import rl_game

    try:
        rl_game(game_id)
    except KeyError:
        pytest.skip(f"{game_id} has no RL catalogue/observation schema yet (src/farmtable/rl/)")


def all_games() -> list[str]:
    """Every registered game (not-ready ones are skipped inside the tests)."""
    return farmtable.list_games()
