"""The ``farmtable`` command line (typer + rich). Every error is one clear line and a non-zero exit.

Start-up is kept short (``benchmarks/speed/cli_startup.py``; target 0.15 s of CPU for
``farmtable --help`` and ``farmtable games``):

- ``farmtable --help`` from the installed script on a terminal of 80 columns or more prints the
  help text kept in :mod:`farmtable.cli.help_text` without loading typer (click wraps help to the
  terminal below 80 columns, so narrower terminals and other program names take the full path);
  ``tests/cli/test_startup.py`` checks the kept text is what typer prints;
- ``farmtable games`` takes no arguments and runs without typer (:mod:`farmtable.cli.listing`);
- everything else goes through typer (:mod:`farmtable.cli.entry`), whose command modules import the
  arena, the agents and numpy only inside the commands that use them; help is plain click text
  (typer's rich help pulls in a Markdown parser and the traceback pretty-printer).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any

__all__ = ["app", "main"]

PROGRAM = "farmtable"
"""The installed script's name: the kept help text says ``Usage: farmtable ...``."""
HELP_WIDTH = 80
"""Click formats help to min(terminal columns, 80): at 80 columns or more it is always the same."""


def kept_help(argv: list[str]) -> str | None:
    """The kept ``--help`` text when it is exactly what typer would print here, else None."""
    if argv != ["--help"] or os.path.basename(sys.argv[0]) != PROGRAM:
        return None
    if shutil.get_terminal_size().columns < HELP_WIDTH:
        return None
    from farmtable.cli.help_text import HELP

    return HELP


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 refused, 2 usage error)."""
    args = sys.argv[1:] if argv is None else list(argv)
    text = kept_help(args)
    if text is not None:
        sys.stdout.write(text)
        return 0
    if args == ["games"]:
        from farmtable.cli.listing import games_command

        games_command()
        return 0
    from farmtable.cli.entry import run

    return run(argv)


def __getattr__(name: str) -> Any:
    """``farmtable.cli.app``: the typer application, loaded on first use."""
    if name == "app":
        from farmtable.cli.entry import app

        return app
    raise AttributeError(f"module 'farmtable.cli' has no attribute {name!r}")
