"""What the table page says beside the board: the log's words and the extras of an update
(live score, last moves, …). The hub calls these; they read only what the seat may see."""

from __future__ import annotations

from typing import Any

from farmtable.core import Game, State


def log_text(kind: str, player: int, notation: str, hidden: bool) -> str:
    """One log line as a seat may read it; ``hidden`` when the notation is still secret to that seat."""
    if kind == "undo":
        return f"Player {player} took back a decision" + ("" if hidden else f" ({notation})")
    return f"Player {player} chose (secret)" if hidden else f"Player {player}: {notation}"


def table_extras(game: Game[Any], state: State[Any], view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Extra data for the table page beside the board picture, from ``seat``'s view (None: spectator)."""
    return {}
