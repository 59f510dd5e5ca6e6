"""The ``farmtable`` command line (typer + rich). Every error is one clear line and a non-zero exit."""

from __future__ import annotations

import sys

import typer

from farmtable.cli import files as _files  # noqa: F401  (registers its commands)
from farmtable.cli import play as _play  # noqa: F401
from farmtable.cli import serve as _serve  # noqa: F401
from farmtable.cli import study as _study  # noqa: F401
from farmtable.cli.common import CliError, app, console

__all__ = ["app", "main"]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 refused, 2 usage error)."""
    try:
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
