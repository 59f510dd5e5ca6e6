"""``farmtable play``: a game in the terminal against computer players, with undo, save and load."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import farmtable
from farmtable.cli.common import (
    CliError,
    OptionOpt,
    PlayersOpt,
    SeedOpt,
    VariantOpt,
    app,
    console,
    data_dir,
    game_or_error,
    load_game_file,
    print_result,
    save_game_file,
)
from farmtable.cli.files import parse_options

if TYPE_CHECKING:
    from farmtable.core import State

HUMAN = "human"
DEFAULT_OPPONENT = "normal"
"""The seats nobody named get the Normal AI level, the web's default too (``farmtable.agents.levels``)."""
SHOWN_MOVES = 40

HELP = """Type the number of a move, or its notation. Commands:
  moves       list the legal moves again
  board       show the board again
  hint [N]    what the Expert AI would play here (or a search of N iterations)
  undo        take back your last decision (only your own, before anyone
              else decides, and never past a roll or a revealed card)
  save FILE   save the game           load FILE   load a saved game
  help        this text               quit        save and leave"""


def parse_seats(players: int, seats: list[str]) -> dict[int, str]:
    """Read ``--seat 1=random`` options into {seat: agent spec or "human"}; unnamed seats: seat 0 human."""
    chosen: dict[int, str] = {}
    for item in seats:
        seat, eq, spec = item.partition("=")
        if not eq or not seat.strip().isdigit():
            raise CliError(f"--seat '{item}' should look like 1=hard (seat number = AI level, agent spec or human)")
        number = int(seat)
        if not 0 <= number < players:
            raise CliError(f"--seat {number}: this game has seats 0 to {players - 1}")
        spec = spec.strip()
        if spec != HUMAN:
            import farmtable.agents

            farmtable.agents.make(spec)  # refuse an unknown agent now, not mid-game
        chosen[number] = spec
    for p in range(players):
        chosen.setdefault(p, HUMAN if p == 0 else DEFAULT_OPPONENT)
    return chosen


class TerminalGame:
    """One game at the terminal: people type, agents answer, every decision autosaved."""

    def __init__(self, state: State[Any], seats: dict[int, str], save_path: Path, seed: int | None) -> None:
        import farmtable.agents
        from farmtable.core import History

        self.history = History(state)
        self.seats = seats
        self.save_path = save_path
        self.agents = {
            p: farmtable.agents.make(
                spec, seed=None if seed is None else seed + 101 * p, game=state.game.id, players=state.players
            )
            for p, spec in seats.items()
            if spec != HUMAN
        }
        humans = [p for p, spec in seats.items() if spec == HUMAN]
        self.names = [
            ("You" if humans == [p] else f"Player {p}") if seats[p] == HUMAN else f"Player {p} ({seats[p]})"
            for p in range(state.players)
        ]

    @property
    def state(self) -> State[Any]:
        """The game as it stands."""
        return self.history.state

    def run(self) -> None:
        """Play until the game ends or the player quits."""
        while not self.state.is_over():
            actors = self.state.actors()
            agent_actor = next((p for p in actors if p in self.agents), None)
            if agent_actor is not None:
                action = self.agents[agent_actor].act(self.state, agent_actor)
                notation = self.history.apply(agent_actor, action)
                # in a simultaneous step the choice stays secret until the step resolves
                shown = "made a secret choice" if len(actors) > 1 else notation
                console.print(f"[dim]{self.names[agent_actor]}:[/dim] {shown}", highlight=False)
                self._autosave()
                continue
            if not self._human_turn(actors[0]):
                return
        console.rule("Game over")
        console.print(self.state.render_text(None), markup=False)
        print_result(self.state.result(), self.names)
        self._autosave()

    def _show(self, player: int) -> None:
        console.rule(f"{self.names[player]} to decide")
        console.print(self.state.render_text(player), markup=False)
        self._list_moves(player, SHOWN_MOVES)

    def _list_moves(self, player: int, limit: int | None = None) -> None:
        legal = self.state.legal_actions(player)
        shown = legal if limit is None else legal[:limit]
        for i, action in enumerate(shown, 1):
            console.print(f"  {i:3}. {action}", markup=False)
        if len(shown) < len(legal):
            console.print(f"  … {len(legal) - len(shown)} more: type 'moves' to list them all")

    def _autosave(self) -> None:
        save_game_file(self.state, self.save_path)

    def _human_turn(self, player: int) -> bool:
        """Read commands until ``player`` makes a decision; False when the player quits."""
        self._show(player)
        while True:
            try:
                line = console.input(f"[bold]{self.names[player]}>[/bold] ").strip()
            except EOFError:
                line = "quit"
            word, _, rest = line.partition(" ")
            word = word.lower()
            if not line:
                continue
            if word in ("quit", "exit"):
                self._autosave()
                console.print(f"Saved to {self.save_path}; resume with: farmtable play --load {self.save_path}")
                return False
            if word == "help":
                console.print(HELP, markup=False)
            elif word in ("moves", "legal"):
                self._list_moves(player)
            elif word == "board":
                console.print(self.state.render_text(player), markup=False)
            elif word == "hint":
                self._hint(player, int(rest) if rest.strip().isdigit() else None)
            elif word == "undo":
                self._undo(player)
                return True
            elif word in ("save", "load") and rest:
                self._save_or_load(word, Path(rest.strip()))
                if word == "load":
                    return True
            elif line.isdigit():
                legal = self.state.legal_actions(player)
                index = int(line)
                if not 1 <= index <= len(legal):
                    console.print(f"[red]There is no move {index}: choose 1 to {len(legal)}.[/red]")
                    continue
                self.history.apply(player, legal[index - 1])
                self._autosave()
                return True
            else:
                try:
                    self.history.apply(player, line)
                except farmtable.IllegalAction as exc:
                    console.print(f"[red]Not allowed:[/red] {exc}", markup=True, highlight=False)
                    continue
                self._autosave()
                return True

    def _hint(self, player: int, iterations: int | None) -> None:
        from farmtable.arena import hint

        advice = hint(self.state, player, iters=iterations)
        if advice.iterations == 0:
            console.print(f"  only one legal move: {advice.best.notation}", markup=False)
            return
        measure = "score" if advice.solo else "est. win"
        for move in advice.moves[:5]:
            console.print(f"  {move.notation}  ({move.visits} visits, {measure} {100 * move.value:.0f}%)", markup=False)

    def _undo(self, player: int) -> None:
        try:
            notation = self.history.undo(player)
        except farmtable.IllegalAction as exc:
            console.print(f"[red]{exc}[/red]")
            return
        self._autosave()
        console.print(f"Took back: {notation}")

    def _save_or_load(self, word: str, path: Path) -> None:
        try:
            if word == "save":
                save_game_file(self.state, path)
                console.print(f"Saved to {path}")
                return
            state = load_game_file(path)
        except (OSError, ValueError, CliError) as exc:
            console.print(f"[red]Cannot {word} {path}: {exc}[/red]")
            return
        if state.game.id != self.state.game.id or state.players != self.state.players:
            console.print(f"[red]{path} holds another game or player count: not loaded[/red]")
            return
        from farmtable.core import History

        self.history = History(state)
        console.print(f"Loaded {path}")


@app.command("play")
def play_command(
    game_id: Annotated[str | None, typer.Argument(metavar="GAME", help="Game id (see `farmtable games`).")] = None,
    players: PlayersOpt = 2,
    seat: Annotated[
        list[str] | None,
        typer.Option("--seat", help="Who plays a seat: 1=random, 0=human ... (default: you are seat 0)."),
    ] = None,
    seed: SeedOpt = None,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    load: Annotated[Path | None, typer.Option(help="Resume a saved game instead of starting one.")] = None,
    save: Annotated[Path | None, typer.Option(help="Autosave file (default: in farmtable's data folder).")] = None,
) -> None:
    """Play in the terminal against computer players (you are seat 0 unless --seat says otherwise)."""
    if load is not None:
        state = load_game_file(load)
    elif game_id is None:
        raise CliError("name a game to play (see `farmtable games`), or --load a saved game")
    else:
        game = game_or_error(game_id)
        state = game.new_game(players=players, seed=seed, variants=tuple(variant or ()), **parse_options(option or []))
    seats = parse_seats(state.players, seat or [])
    save_path = save or load or data_dir() / f"play-{state.game.id}.json"
    console.print(f"[bold]{state.game.title}[/bold] — {state.players} player(s). Type 'help' for commands.")
    TerminalGame(state, seats, save_path, seed).run()
