"""``farmtable serve``: play in the browser — tables with friends and AI, stored in a database."""

from __future__ import annotations

import errno
import os
import signal
import socket
import sys
import time
from types import SimpleNamespace
from typing import Annotated, Any

import typer

from farmtable.cli.common import CliError, app, console, data_dir


def _limits_defaults() -> Any:
    """The server's default limits (the 'web' extra may be missing: then plain numbers do)."""
    try:
        from farmtable.server.limits import Limits
    except ImportError:
        return SimpleNamespace(**_FALLBACK)
    return Limits()


_FALLBACK = {
    "max_body": 64_000,
    "max_message": 4_096,
    "tables_per_minute": 20,
    "max_tables": 400,
    "sockets_per_client": 32,
    "sockets_per_table": 64,
    "messages_per_second": 10.0,
    "max_ai_iters": 2_000,
    "max_ai_seconds": 2.0,
    "token_seconds": 30 * 86_400.0,
}


def uvicorn_options(limits: Any) -> dict[str, Any]:
    """uvicorn settings that go with the limits: WebSocket frames no bigger than a message, no
    WebSocket compression (a small frame must not inflate into a large one), idle keep-alives cut."""
    return {
        "ws_max_size": limits.max_message + 1024,
        "ws_per_message_deflate": False,
        "timeout_keep_alive": 5,
        "h11_max_incomplete_event_size": 16 * 1024,
        "server_header": False,
    }


DEFAULT_AI_DELAY = 0.6
_DEFAULTS = _limits_defaults()
"""Seconds an AI seat waits before moving in the served app, so people can follow the play."""


def bind_listener(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` for the server (bound here, before anything is printed,
    so a busy port is one clear line with a ``--port`` hint; the server then serves on this very socket,
    so nobody can take the port in between). ``CliError`` when the port is taken or the address is bad."""
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as exc:
        raise CliError(f"cannot listen on {host!r}: {exc.strerror}") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: a restart reuses the port
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise CliError(
                f"port {port} on {host} is already in use (another server?): choose a free one, e.g. --port {port + 1}"
            ) from None
        if exc.errno == errno.EACCES:
            raise CliError(f"no permission to listen on port {port}: choose one above 1023, e.g. --port 8000") from None
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


SQLITE_ONE_PROCESS = (
    "--workers {n} needs PostgreSQL (--db postgresql://…): with SQLite one process holds the tables and "
    "runs their AI seats, and other processes would neither see its moves nor push them; use --workers 1"
)


def check_workers(workers: int, url: str) -> None:
    """``CliError`` unless ``workers`` processes may share the database at ``url`` (more than one: PostgreSQL)."""
    if workers < 1:
        raise CliError(f"--workers must be 1 or more, not {workers}")
    if workers > 1 and not url.startswith("postgresql"):
        raise CliError(SQLITE_ONE_PROCESS.format(n=workers))


def run_workers(serve_one: Any, workers: int) -> None:
    """Run ``serve_one()`` in ``workers`` forked processes sharing the listening socket; a worker that
    dies is started again, and SIGTERM/SIGINT stop them all gracefully (each drains its own sockets)."""
    children: set[int] = set()
    stopping = False

    def spawn() -> None:
        pid = os.fork()
        if pid == 0:  # the worker: it serves until told to stop, then leaves without the parent's clean-up
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = 0
            try:
                serve_one()
            except BaseException:
                code = 1
            os._exit(code)
        children.add(pid)

    def stop(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                children.discard(pid)

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        for _ in range(workers):
            spawn()
        while children:
            try:
                pid, status = os.wait()
            except ChildProcessError:
                break
            except InterruptedError:
                continue
            children.discard(pid)
            if not stopping:
                print(f"worker {pid} ended ({status}); starting another", file=sys.stderr)
                time.sleep(0.5)
                spawn()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


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
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            help="A host name the server answers to besides localhost and IP addresses (repeat it; '*': any). "
            "Needed when friends reach it by name, e.g. --allow-host mybox.local."
        ),
    ] = None,
    max_body: Annotated[int, typer.Option(help="Largest request body in bytes.", min=1024)] = _DEFAULTS.max_body,
    tables_per_minute: Annotated[
        int, typer.Option(help="New tables one address may open per minute (0: no limit).", min=0)
    ] = _DEFAULTS.tables_per_minute,
    max_tables: Annotated[
        int, typer.Option(help="Tables held in memory; idle ones leave first (0: no limit).", min=0)
    ] = _DEFAULTS.max_tables,
    sockets_per_client: Annotated[
        int, typer.Option(help="Open WebSockets per address (0: no limit).", min=0)
    ] = _DEFAULTS.sockets_per_client,
    sockets_per_table: Annotated[
        int, typer.Option(help="Open WebSockets per table (0: no limit).", min=0)
    ] = _DEFAULTS.sockets_per_table,
    messages_per_second: Annotated[
        float, typer.Option(help="Messages per WebSocket per second; faster closes it (0: no limit).", min=0)
    ] = _DEFAULTS.messages_per_second,
    max_ai_iters: Annotated[
        int, typer.Option(help="Largest 'iters' of a raw search spec for an AI seat.", min=1)
    ] = _DEFAULTS.max_ai_iters,
    max_ai_seconds: Annotated[
        float, typer.Option(help="Largest 'time' (seconds a decision) of a raw search spec.", min=0.01)
    ] = _DEFAULTS.max_ai_seconds,
    levels_only: Annotated[
        bool, typer.Option(help="AI seats take only the named levels (and random), no raw specs.")
    ] = False,
    token_days: Annotated[
        float,
        typer.Option(
            help="Days a seat token acts after it was issued; then it is refused with 401 (0: forever).", min=0
        ),
    ] = _DEFAULTS.token_seconds / 86_400,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes on this machine sharing the port and the database (more than 1 needs PostgreSQL).",
            min=1,
        ),
    ] = 1,
    lease_seconds: Annotated[
        float,
        typer.Option(
            help="With several processes: seconds an AI-seat lease lasts unrenewed (how soon another process "
            "takes over the AI seats of one that died).",
            min=0.5,
        ),
    ] = 10.0,
) -> None:
    """Start the web server: play every game in the browser with friends and AI."""
    try:
        import uvicorn

        from farmtable.server import create_app
        from farmtable.server.limits import Limits
    except ImportError as exc:
        raise CliError(f"the web server needs the 'web' extra: pip install 'farmtable[web]' ({exc})") from None
    url = db or default_db_url()
    check_workers(workers, url)
    listener = bind_listener(host, port)
    limits = Limits(
        max_body=max_body,
        tables_per_minute=tables_per_minute,
        max_tables=max_tables,
        sockets_per_client=sockets_per_client,
        sockets_per_table=sockets_per_table,
        messages_per_second=messages_per_second,
        max_ai_iters=max_ai_iters,
        max_ai_seconds=max_ai_seconds,
        levels_only=levels_only,
        token_seconds=token_days * 86_400,
        allow_hosts=tuple(h.strip().lower() for h in allow_host or ()),
    )
    try:
        application = create_app(
            url, ai_delay=ai_delay, sqlite_sync=sqlite_sync, limits=limits, lease_seconds=lease_seconds
        )
    except ValueError as exc:
        listener.close()
        raise CliError(str(exc)) from None
    except Exception as exc:  # a bad URL or an unreachable database: one clear line
        listener.close()
        raise CliError(f"cannot open the database {url}: {exc}") from None
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    console.print(f"farmtable is serving on http://{shown}:{port}/", markup=False, soft_wrap=True)
    console.print(f"database: {shown_url(url)} (Ctrl+C stops the server)", markup=False, soft_wrap=True, style="dim")
    if workers > 1:
        console.print(f"{workers} worker processes share the port", markup=False, soft_wrap=True, style="dim")
    if host not in ("127.0.0.1", "::1", "localhost") and not allow_host:
        hint = "others may use this machine's IP address; to reach it by a name, add --allow-host NAME"
        console.print(hint, markup=False, soft_wrap=True, style="dim")
    config = uvicorn.Config(
        application,
        host=host,
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        **uvicorn_options(limits),
    )

    def serve_one() -> None:
        uvicorn.Server(config).run(sockets=[listener])

    try:
        if workers > 1:
            run_workers(serve_one, workers)
        else:
            serve_one()
    finally:
        listener.close()


GRACEFUL_SECONDS = 15
"""At shutdown, how long requests and sockets in flight may take before they are cut."""


def shown_url(url: str) -> str:
    """A database URL fit to print: its password replaced by ``***``."""
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    auth, _, place = rest.rpartition("@")
    user, colon, _password = auth.partition(":")
    return f"{head}://{user}{':***' if colon else ''}@{place}"
