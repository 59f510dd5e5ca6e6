"""The ``farmtable`` command line (typer + rich). Every error is one clear line and a non-zero exit.

Start-up is kept short (``farmtable --help`` and ``farmtable games`` in well under 0.15 s of CPU,
``benchmarks/speed/cli_startup.py``): the command modules import the arena, the agents and numpy
only inside the commands that use them; help is plain click text (typer's rich help pulls in a
Markdown parser and the traceback pretty-printer, ~0.15 s); and ``farmtable games``, which takes no
arguments, runs without typer's argument coercion (which imports pydantic, ~0.1 s, even for a
command that has no parameters).
"""

from __future__ import annotations

import sys

import typer

from farmtable.cli import files as _files  # registers its commands; `games` runs through it directly
from farmtable.cli import play as _play  # noqa: F401
from farmtable.cli import serve as _serve  # noqa: F401
from farmtable.cli import study as _study  # noqa: F401
from farmtable.cli.common import CliError, app, console

__all__ = ["app", "main"]

app.rich_markup_mode = None
"""Plain click help: the rich help renderer costs more start-up time than everything else together."""


def _fast_path(argv: list[str]) -> bool:
    """Run an invocation that needs no argument parsing directly; True if it was run."""
    if argv == ["games"]:
        _files.games_command()
        return True
    return False


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 refused, 2 usage error)."""
    try:
        if _fast_path(sys.argv[1:] if argv is None else list(argv)):
            return 0
        app(args=argv, standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except typer.Abort:
        console.print("aborted")
        return 1
    except typer.TyperException as exc:
        console.print(f"error: {exc.format_message()}", markup=False, highlight=False, soft_wrap=True)
        return 2
    except (CliError, ValueError, KeyError, OSError, ImportError) as exc:
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
