"""Commands that work on saved games and typed positions: games, new, show, legal, apply, score."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import farmtable
from farmtable.cli.common import (
    CliError,
    GameArg,
    OptionOpt,
    PlayersOpt,
    SeedOpt,
    VariantOpt,
    app,
    console,
    game_or_error,
    load_game_file,
    print_result,
    read_text,
    save_game_file,
)
from farmtable.cli.listing import games_command

if TYPE_CHECKING:
    from farmtable.core import State

AsPlayer = Annotated[int | None, typer.Option("--as", help="Seat number (0-based) whose view to use.")]


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """Read ``--option key=value`` pairs: a JSON value, else a comma-separated list, else a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or not key:
            raise CliError(f"--option '{pair}' should look like key=value")
        value: Any
        try:
            value = json.loads(raw)
        except ValueError:
            value = [v.strip() for v in raw.split(",")] if "," in raw else raw
        options[key] = value
    return options


app.command("games")(games_command)


@app.command("new")
def new_command(
    game_id: GameArg,
    players: PlayersOpt = 2,
    seed: SeedOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="File to save the game to.")] = None,
) -> None:
    """Start a new game and save it to a file (or print its JSON)."""
    game = game_or_error(game_id)
    state = game.new_game(players=players, seed=seed, variants=tuple(variant or ()), **parse_options(option or []))
    if output is None:
        console.print(state.to_json(), soft_wrap=True, markup=False)
    else:
        save_game_file(state, output)
        console.print(f"new {game.title} game for {players} saved to {output}")


def _status(state: State[Any]) -> str:
    if state.is_over():
        return "The game is over."
    return "To decide: " + ", ".join(f"player {p}" for p in state.actors())


@app.command("show")
def show_command(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    as_player: AsPlayer = None,
) -> None:
    """Show the board as text, as a player (or a spectator) sees it."""
    state = load_game_file(file)
    _check_seat(state, as_player)
    console.print(state.render_text(as_player), markup=False)
    console.print(_status(state))


def _check_seat(state: State[Any], player: int | None) -> None:
    if player is not None and not 0 <= player < state.players:
        raise CliError(f"--as {player}: this game has seats 0 to {state.players - 1}")


@app.command("legal")
def legal_command(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    as_player: AsPlayer = None,
) -> None:
    """List the legal moves (of one player, or of everyone who decides now)."""
    state = load_game_file(file)
    _check_seat(state, as_player)
    if state.is_over():
        console.print("The game is over: no legal moves.")
        return
    for p in [as_player] if as_player is not None else state.actors():
        legal = state.legal_actions(p)
        console.print(f"player {p}: {len(legal)} legal moves")
        for i, action in enumerate(legal, 1):
            console.print(f"  {i:3}. {action}", markup=False)


def acting_player(state: State[Any], as_player: int | None) -> int:
    """The player a typed move is for: ``--as`` if given, else the only actor."""
    if as_player is not None:
        return as_player
    actors = state.actors()
    if state.is_over():
        raise CliError("the game is over: no more moves")
    if len(actors) > 1:
        raise CliError(f"players {', '.join(map(str, actors))} decide at once: say who with --as P")
    return actors[0]


@app.command("apply")
def apply_command(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    actions: Annotated[list[str], typer.Argument(metavar="ACTION...", help="Moves in notation, in order.")],
    as_player: AsPlayer = None,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Save here instead of FILE.")] = None,
) -> None:
    """Apply moves to a saved game. If any move is illegal, nothing is saved and the rule is named."""
    state = load_game_file(file)
    _check_seat(state, as_player)
    for action in actions:
        player = acting_player(state, as_player)
        try:
            state.apply(player, action)
        except farmtable.IllegalAction as exc:
            raise CliError(f"illegal move '{action}' for player {player}: {exc} (nothing was saved)") from None
    target = output or file
    save_game_file(state, target)
    console.print(f"{len(actions)} move(s) applied; saved to {target}. {_status(state)}")


@app.command("score")
def score_command(
    target: Annotated[str, typer.Argument(metavar="FILE | GAME", help="A saved game, or a game id.")],
    file: Annotated[
        Path | None, typer.Argument(metavar="[POSITION]", help="With GAME: an end position typed as text.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Print the score sheet of a saved game, or of an end position typed as text (the scoring helper)."""
    if file is None:
        state = load_game_file(Path(target))
        result = state.result()
        final = state.is_over()
    else:
        game = game_or_error(target)
        result = game.score_text(read_text(file))
        final = True
    if as_json:
        console.print(json.dumps(result.to_dict(), indent=2), markup=False, soft_wrap=True)
        return
    print_result(result, None, final)
