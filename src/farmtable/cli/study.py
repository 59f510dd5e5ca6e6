"""Commands for studying the games: ``arena``, ``solo``, ``report``, ``bench`` and ``hint``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

import farmtable
from farmtable.cli.common import (
    CliError,
    GameArg,
    OptionOpt,
    PlayersOpt,
    VariantOpt,
    app,
    console,
    game_or_error,
    get_console,
    load_game_file,
)
from farmtable.cli.files import parse_options

if TYPE_CHECKING:  # the arena pulls in SQLAlchemy, numpy and rich tables: imported when a command runs
    from rich.table import Table

    from farmtable.arena import GameRecord
    from farmtable.arena.jobs import Job

WorkersOpt = Annotated[int, typer.Option("--workers", "-w", help="Worker processes (or Ray CPUs).")]
BackendOpt = Annotated[str, typer.Option(help="Where games run: local (processes) or ray.")]
AddressOpt = Annotated[str | None, typer.Option(help="Ray cluster address (default: start Ray locally).")]
ArenaSeedOpt = Annotated[int, typer.Option(help="Base seed: every game's deal and agent seeds derive from it.")]


def split_agents(text: str) -> list[str]:
    """Read ``--agents``: specs separated by commas (or ';'), a parameter joining the spec before it.

    ``"ismcts:iters=200,depth=5,greedy"`` gives ``["ismcts:iters=200,depth=5", "greedy"]``.
    """
    specs: list[str] = []
    for part in (p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def _check_agents(specs: list[str]) -> None:
    import farmtable.agents

    for spec in specs:
        try:
            farmtable.agents.make(spec)
        except ValueError as exc:
            raise CliError(str(exc)) from None


def _check_setup(game_id: str, players: int, variants: tuple[str, ...], options: dict[str, Any]) -> None:
    game = game_or_error(game_id)
    game.new_game(players=players, seed=0, variants=variants, **options)  # ValueError says why


def _run_with_progress(
    jobs: list[Job], db: Path | None, workers: int, backend: str, address: str | None, label: str
) -> list[GameRecord]:
    """Run the jobs with a progress bar (ETA included); returns every record of these jobs, stored or new."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from farmtable.arena import BACKENDS, ResultStore, run_jobs

    if backend not in BACKENDS:
        raise CliError(f"no backend '{backend}'; the backends are: {', '.join(BACKENDS)}")
    if workers < 1:
        raise CliError(f"--workers must be at least 1, not {workers}")
    store = ResultStore(db) if db is not None else None
    try:
        done_before = len(store.done_keys(j.key for j in jobs)) if store else 0
        if done_before:
            console.print(f"resuming: {done_before} of {len(jobs)} games already in {db}")
        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=get_console(), transient=False) as bar:
            task = bar.add_task(label, total=len(jobs), completed=done_before)
            try:
                new = run_jobs(
                    jobs,
                    store,
                    workers=workers,
                    backend=backend,
                    address=address,
                    progress=lambda _r: bar.advance(task),
                )
            except (ValueError, farmtable.IllegalAction):
                raise
            except Exception as exc:  # a game that breaks mid-run: one line, the run can resume
                raise CliError(f"a game failed ({type(exc).__name__}: {exc}); finished games are kept") from None
        if store is None:
            return new
        return store.records(game=jobs[0].game, keys=[j.key for j in jobs]) if jobs else []
    finally:
        if store is not None:
            store.close()


def arena_tables(records: list[GameRecord]) -> list[Table]:
    """The arena's summary as rich tables: agents, seats, ratings."""
    from rich.table import Table

    from farmtable.arena import stats

    agents = Table(title="Agents (win rate counts a shared win as a split share; 95% CIs)")
    for col in ("agent", "seats", "win rate [95% CI]", "mean score [95% CI]", "mean place"):
        agents.add_column(col, justify="left" if col == "agent" else "right")
    for s in stats.agent_summaries(records):
        agents.add_row(
            s.agent,
            str(s.seats),
            str(s.wins),
            f"{s.score[0]:.1f} [{s.score[1]:.1f}, {s.score[2]:.1f}]",
            f"{s.place:.2f}",
        )
    seats = Table(title=f"Seats (fair share {100 / records[0].players:.0f}%)")
    for col in ("seat", "win rate [95% CI]", "mean score"):
        seats.add_column(col, justify="right")
    scores = stats.seat_scores(records)
    for i, r in enumerate(stats.seat_rates(records)):
        seats.add_row(str(i), str(r), f"{scores[i][0]:.1f}")
    tables = [agents, seats]
    rated = stats.ratings(records)
    if rated:
        ratings = Table(title="openskill ratings (Plackett-Luce)")
        for col in ("agent", "mu", "sigma", "mu − 3σ"):
            ratings.add_column(col, justify="left" if col == "agent" else "right")
        for rating in rated:
            ratings.add_row(rating.agent, f"{rating.mu:.2f}", f"{rating.sigma:.2f}", f"{rating.ordinal:.2f}")
        tables.append(ratings)
    return tables


@app.command("arena")
def arena_command(
    game_id: GameArg,
    agents: Annotated[str, typer.Option(help="Agent specs, comma-separated: greedy,ismcts:iters=200,depth=5,random")],
    games: Annotated[int, typer.Option("--games", "-g", help="How many games (seat-rotated).")] = 100,
    players: PlayersOpt = 2,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    workers: WorkersOpt = 1,
    seed: ArenaSeedOpt = 0,
    db: Annotated[Path, typer.Option(help="SQLite file the games are stored in (resumes from it).")] = Path(
        "results.sqlite"
    ),
    backend: BackendOpt = "local",
    address: AddressOpt = None,
) -> None:
    """Play agents against each other; print win rates with 95% CIs, scores, seat advantage and ratings."""
    specs = split_agents(agents)
    if not specs:
        raise CliError("--agents needs at least one agent spec, e.g. --agents greedy,random")
    if games < 1:
        raise CliError("--games must be at least 1")
    if players < 2:
        raise CliError("the arena plays games of 2 or more players; for solo use `farmtable solo`")
    _check_agents(specs)
    variants = tuple(variant or ())
    options = parse_options(option or [])
    _check_setup(game_id, players, variants, options)
    from farmtable.arena import schedule, stats

    jobs = schedule(game_id, specs, games, players, variants, seed, options)
    records = _run_with_progress(jobs, db, workers, backend, address, f"{game_id} arena")
    for table in arena_tables(records):
        console.print(table)
    length = stats.mean_ci([float(n) for n in stats.lengths(records)])
    console.print(f"{len(records)} games stored in {db}; mean length {length[0]:.0f} decisions")


@app.command("solo")
def solo_command(
    game_id: GameArg,
    agent: Annotated[str, typer.Option(help="Agent spec, e.g. greedy or ismcts:iters=200.")] = "greedy",
    games: Annotated[int, typer.Option("--games", "-g", help="How many solo games.")] = 100,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    workers: WorkersOpt = 1,
    seed: ArenaSeedOpt = 0,
    db: Annotated[Path | None, typer.Option(help="Also store the games in this SQLite file.")] = None,
    backend: BackendOpt = "local",
    address: AddressOpt = None,
) -> None:
    """Solo benchmark: the score distribution and the share of games reaching each tier of the rulebook's table."""
    if games < 1:
        raise CliError("--games must be at least 1")
    _check_agents([agent])
    game = game_or_error(game_id)
    if game.min_players > 1:
        raise CliError(f"{game.title} has no solo rules (it takes {game.min_players}–{game.max_players} players)")
    variants = tuple(variant or ())
    options = parse_options(option or [])
    _check_setup(game_id, 1, variants, options)
    from rich.table import Table

    from farmtable.arena import schedule, solo, stats

    jobs = schedule(game_id, [agent], games, 1, variants, seed, options)
    records = _run_with_progress(jobs, db, workers, backend, address, f"{game_id} solo")
    summary = solo.summarize(records)
    dist = Table(title=f"{game.title} solo, {agent}: final score over {summary.games} games")
    points = ("min", "p10", "p25", "median", "p75", "p90", "max")
    for col in (*points, "mean [95% CI]"):
        dist.add_column(col, justify="right")
    mean = stats.mean_ci([float(t) for t in summary.totals])
    dist.add_row(*(f"{v:g}" for v in solo.quantiles(summary.totals)), f"{mean[0]:.1f} [{mean[1]:.1f}, {mean[2]:.1f}]")
    console.print(dist)
    if summary.tiers:
        tiers = Table(title="The rulebook's solo table: share of games reaching each tier (or better)")
        tiers.add_column("tier")
        tiers.add_column("share [95% CI]", justify="right")
        for name, r in summary.tiers:
            tiers.add_row(name, str(r))
        console.print(tiers)
    for key, shares in summary.categories.items():
        table = Table(title=f"result detail '{key}'")
        table.add_column(key)
        table.add_column("share", justify="right")
        for value, share in shares:
            table.add_row(value, f"{100 * share:.1f}%")
        console.print(table)


@app.command("report")
def report_command(
    db: Annotated[Path, typer.Argument(help="SQLite file written by `farmtable arena` or `farmtable solo --db`.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for index.html and the PNG plots.")] = Path("report"),
) -> None:
    """Write an HTML page with plots (scores, win-rate matrix, seat advantage, game length) from a results file."""
    if not db.exists():
        raise CliError(f"no such file: {db}")
    from farmtable.arena.report import write_report

    page = write_report(db, out)
    console.print(f"report written: {page}")


@app.command("bench")
def bench_command(
    game_id: Annotated[str | None, typer.Argument(metavar="[GAME]", help="One game (default: every game).")] = None,
    seconds: Annotated[float, typer.Option(help="Seconds of random play per game.")] = 3.0,
    iters: Annotated[int, typer.Option(help="ISMCTS iterations per measured position.")] = 100,
    players: Annotated[int | None, typer.Option("--players", "-n", help="Players (default 2, or the minimum).")] = None,
) -> None:
    """Speed on one core: random-play decisions/s, complete games/s, ISMCTS iterations/s."""
    from rich.table import Table

    from farmtable.arena.bench import bench_game

    ids = [game_or_error(game_id).id] if game_id else farmtable.list_games()
    table = Table(title="farmtable bench (one core; rates per CPU-second of this process)")
    for col in ("game", "players", "decisions/s", "games/s", "decisions/game", "ismcts iters/s", "wall s"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for gid in ids:
        with console.status(f"measuring {gid} …"):
            r = bench_game(gid, seconds=seconds, players=players, ismcts_iters=iters)
        table.add_row(
            gid,
            str(r.players),
            f"{r.decisions_per_s:,.0f}",
            f"{r.games_per_s:,.1f}",
            f"{r.decisions_per_game:,.0f}",
            f"{r.ismcts_iters_per_s:,.0f}",
            f"{r.seconds:.1f}",
        )
    console.print(table)


@app.command("hint")
def hint_command(
    file: Annotated[Path, typer.Argument(help="A saved game (from `farmtable play` or `farmtable new`).")],
    as_player: Annotated[int | None, typer.Option("--as", help="The player to advise (default: first to act).")] = None,
    iters: Annotated[int | None, typer.Option(help="Search iterations (default: the Expert level's search).")] = None,
    time: Annotated[float | None, typer.Option(help="Search for this many CPU seconds instead.")] = None,
    top: Annotated[int, typer.Option(help="How many moves to list.")] = 8,
    seed: Annotated[int, typer.Option(help="Search seed (same seed, same advice).")] = 0,
) -> None:
    """What the Expert AI would play in a saved position, with its estimate per move."""
    from rich.table import Table

    from farmtable.arena import hint

    state = load_game_file(file)
    advice = hint(state, as_player, iters=iters, time=time, seed=seed)
    label = "est. objective (0-1)" if advice.solo else "est. win rate"
    table = Table(title=f"Advice for player {advice.player} ({advice.iterations} search iterations)")
    for col in ("move", "visits", label):
        table.add_column(col, justify="left" if col == "move" else "right")
    for m in advice.moves[:top]:
        table.add_row(m.notation, str(m.visits), "—" if m.value != m.value else f"{100 * m.value:.1f}%")
    console.print(table)
    console.print(f"The Expert AI would play: [bold]{advice.best.notation}[/bold]")
