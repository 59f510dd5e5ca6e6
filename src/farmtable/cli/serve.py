"""``farmtable serve``: play in the browser — tables with friends and AI, stored in a database."""

from __future__ import annotations

from typing import Annotated

import typer

from farmtable.cli.common import CliError, app, console, data_dir

DEFAULT_AI_DELAY = 0.6
"""Seconds an AI seat waits before moving in the served app, so people can follow the play."""


def default_db_url() -> str:
    """The embedded default: a SQLite file in the user's farmtable data folder."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'farmtable.db'}"


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0 to let other machines in).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL: sqlite:///path.db or postgresql://user:pass@host/db (default: a SQLite file)."
        ),
    ] = None,
    ai_delay: Annotated[float, typer.Option(help="Seconds an AI seat pauses before each decision.")] = DEFAULT_AI_DELAY,
    sqlite_sync: Annotated[
        str,
        typer.Option(help="SQLite durability: NORMAL survives a killed server, FULL also a power cut (slower)."),
    ] = "NORMAL",
) -> None:
    """Start the web server: play every game in the browser with friends and AI."""
    try:
        import uvicorn

        from farmtable.server import create_app
    except ImportError as exc:
        raise CliError(f"the web server needs the 'web' extra: pip install 'farmtable[web]' ({exc})") from None
    url = db or default_db_url()
    try:
        application = create_app(url, ai_delay=ai_delay, sqlite_sync=sqlite_sync)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    except Exception as exc:  # a bad URL or an unreachable database: one clear line
        raise CliError(f"cannot open the database {url}: {exc}") from None
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    console.print(f"farmtable is serving on http://{shown}:{port}/", markup=False, soft_wrap=True)
    console.print(f"database: {url} (Ctrl+C stops the server)", markup=False, soft_wrap=True, style="dim")
    uvicorn.run(application, host=host, port=port, log_level="warning")
