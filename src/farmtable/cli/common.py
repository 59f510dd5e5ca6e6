"""Shared pieces of the command line: the app, the console, common options, saving games, the score sheet."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import farmtable
from farmtable.cli.console import console as console
from farmtable.cli.console import get_console as get_console

if TYPE_CHECKING:  # rich and the game core load on first use: `farmtable --help` needs neither
    from rich.table import Table

    from farmtable.core import Result, State
    from farmtable.core.sheet import ScoreSheet

app = typer.Typer(
    name="farmtable",
    help="Play, score and study five small farm games: "
    "Tiny Farms, Farmini, Farmerama, Tiny Towns and Farmers Finances.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


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


def score_table(result: Result, names: list[str] | None = None, title: str = "Score sheet") -> Table:
    """The score sheet as a rich table: one row per scoring line (in words), one column per player."""
    from farmtable.core.sheet import score_sheet

    return _rich_table(score_sheet(result, _typed_names(result, names), title))


def _typed_names(result: Result, names: list[str] | None) -> list[str] | None:
    """``names`` unless they are only the default seat labels: then the names typed in the input win."""
    if names is None or names == player_names(len(result.totals)):
        return None
    return names


def _rich_table(sheet: ScoreSheet) -> Table:
    from rich.table import Table

    table = Table(title=sheet.title, show_footer=True)
    table.add_column("", footer="Total")
    for column, total in zip(sheet.columns, sheet.totals, strict=True):
        table.add_column(column, justify="right", footer=total)
    for line in sheet.lines:
        if line.section == "score":
            table.add_row(line.label, *line.cells)
    details = [line for line in sheet.lines if line.section == "details"]
    if details:
        table.add_section()
        for line in details:
            table.add_row(line.label, *line.cells, style="dim")
    return table


def describe_ranking(result: Result, names: list[str]) -> str:
    """The standing in words, e.g. "1st Anna 40, 2nd Ben 38" ('' for a solo game)."""
    from farmtable.core.sheet import player_names as player_names_of
    from farmtable.core.sheet import standing

    if len(names) == 1:
        return ""
    return standing(result, player_names_of(result, names))


def print_result(result: Result, names: list[str] | None = None, final: bool = True) -> None:
    """Print the readable score sheet (``core.sheet``): columns headed by the players' names, the
    standing (only once the game is over) and the details in words, never raw data."""
    from farmtable.core.sheet import score_sheet

    sheet = score_sheet(result, _typed_names(result, names), final=final)
    console.print(_rich_table(sheet))
    if sheet.standing and len(result.totals) > 1:
        console.print(sheet.standing, style="bold", markup=False)
    for note in sheet.notes:
        console.print(note, markup=False)
