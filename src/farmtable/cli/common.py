"""Shared pieces of the command line: the app, the console, common options, saving games, the score sheet."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

import farmtable
from farmtable.core import Result, State

app = typer.Typer(
    name="farmtable",
    help="Play, score and study five small farm games: "
    "Tiny Farms, Farmini, Farmerama, Tiny Towns and Farmers Finances.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)


GameArg = Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `farmtable games`).")]
PlayersOpt = Annotated[int, typer.Option("--players", "-n", help="Number of players (1 = solo).")]
SeedOpt = Annotated[int | None, typer.Option(help="Seed: the same seed gives the same deal and rolls.")]
VariantOpt = Annotated[list[str] | None, typer.Option("--variant", "-v", help="A variant (repeatable).")]
OptionOpt = Annotated[list[str] | None, typer.Option("--option", help="A game option key=value (repeatable).")]


class CliError(Exception):
    """A problem to report to the user as one line, with a non-zero exit."""


def data_dir() -> Path:
    """Where farmtable keeps its files by default (``$FARMTABLE_HOME`` or the XDG data folder)."""
    home = os.environ.get("FARMTABLE_HOME")
    if home:
        return Path(home)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "farmtable"


def game_or_error(game_id: str) -> farmtable.Game[Any]:
    """The game with this id, or a CliError listing the games."""
    try:
        return farmtable.get_game(game_id)
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def read_text(path: Path) -> str:
    """The text of a file, or a CliError saying why it can't be read."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from None


def load_game_file(path: Path) -> State[Any]:
    """Load a saved game from a file (any game: the file names it)."""
    return farmtable.load_state(read_text(path))


def save_game_file(state: State[Any], path: Path) -> None:
    """Write a game to a file atomically (a crash never leaves half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(state.to_json() + "\n", encoding="utf-8")
    os.replace(tmp, path)


def player_names(players: int, names: list[str] | None = None) -> list[str]:
    """Display names of the seats: given names, else "Player 1".."Player n" (seat p is player p)."""
    return list(names) if names else [f"Player {p}" for p in range(players)]


def score_table(result: Result, names: list[str], title: str = "Score sheet") -> Table:
    """The score sheet as a rich table: one row per scoring line, one column per player."""
    table = Table(title=title, show_footer=True)
    table.add_column("", footer="Total")
    for p, name in enumerate(names):
        table.add_column(name, justify="right", footer=str(result.totals[p]))
    lines: list[str] = []
    for sheet in result.breakdown:
        for line in sheet:
            if line not in lines:
                lines.append(line)
    for line in lines:
        table.add_row(line, *(str(sheet.get(line, "")) for sheet in result.breakdown))
    return table


def describe_ranking(result: Result, names: list[str]) -> str:
    """A one-line account of who won, e.g. "Winner: Player 1" or "Shared win: Player 0, Player 1"."""
    winners = [names[p] for p in result.winners]
    if len(names) == 1:
        return ""
    return ("Shared win: " if len(winners) > 1 else "Winner: ") + ", ".join(winners)


def _detail_text(value: Any) -> str | None:
    """A detail as one readable line, or None for structured values the score sheet already shows."""
    if isinstance(value, str | int | float):
        return str(value)
    if isinstance(value, list | tuple) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(map(str, value))
    return None


def print_result(result: Result, names: list[str], final: bool = True) -> None:
    """Print the score sheet, the ranking (only once the game is over) and the game's simple details."""
    console.print(score_table(result, names, "Score sheet" if final else "Score as it stands"))
    line = describe_ranking(result, names)
    if line and final:
        console.print(f"[bold]{line}[/bold]")
    for key, value in result.details.items():
        text = _detail_text(value)
        if text is not None:
            console.print(f"{key.replace('_', ' ')}: {text}", markup=False)
