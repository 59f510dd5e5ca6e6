"""``farmtable games``: the games, their player counts and variants.

It runs without typer (it takes no arguments, so :func:`farmtable.cli.main` calls it directly) and
without importing the five rules modules: it prints the index kept in ``games_index.json`` beside
this module, refreshed by ``python -m farmtable.cli.listing`` and checked against the live games by
``tests/cli/test_startup.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from farmtable.cli.console import console

INDEX = Path(__file__).with_name("games_index.json")
"""The kept index (JSON: a list of [id, title, fewest, most, [[variant, text], ...]])."""

GameRow = tuple[str, str, int, int, tuple[tuple[str, str], ...]]
"""One game in the index: id, title, fewest and most players, (variant, what it does) pairs."""


def live_index() -> list[GameRow]:
    """The index read from the games themselves (imports every rules module)."""
    import farmtable

    rows: list[GameRow] = []
    for gid in farmtable.list_games():
        game = farmtable.get_game(gid)
        rows.append((gid, game.title, game.min_players, game.max_players, tuple(game.variants.items())))
    return rows


def kept_index() -> list[GameRow]:
    """The index as kept in :data:`INDEX`."""
    rows = json.loads(INDEX.read_text(encoding="utf-8"))
    return [
        (gid, title, low, high, tuple((name, what) for name, what in variants))
        for gid, title, low, high, variants in rows
    ]


def games_command() -> None:
    """List the games, their player counts and variants."""
    from rich.table import Table

    table = Table(title="farmtable games")
    table.add_column("id")
    table.add_column("game")
    table.add_column("players", justify="center")
    table.add_column("variants")
    for gid, title, low, high, variants in kept_index():
        text = "\n".join(f"{name}: {what}" for name, what in variants) or "-"
        table.add_row(gid, title, f"{low}-{high}", text)
    console.print(table)


if __name__ == "__main__":  # python -m farmtable.cli.listing: refresh the kept index
    INDEX.write_text(json.dumps(live_index(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {INDEX}")
