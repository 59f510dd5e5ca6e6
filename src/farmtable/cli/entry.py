"""The typer application with every command registered, and the full command-line run.

:func:`farmtable.cli.main` comes here for everything but the two start-up fast paths.
"""

from __future__ import annotations

import typer

from farmtable.cli import files as _files  # noqa: F401  (registers its commands)
from farmtable.cli import play as _play  # noqa: F401
from farmtable.cli import serve as _serve  # noqa: F401
from farmtable.cli import study as _study  # noqa: F401
from farmtable.cli.common import CliError, app, console

__all__ = ["app", "run"]

app.rich_markup_mode = None
"""Plain click help: the rich help renderer costs more start-up time than everything else together."""


def run(argv: list[str] | None = None) -> int:
    """Run the command line through typer; returns the exit status (0 ok, 1 refused, 2 usage error)."""
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


def write_help_text() -> str:
    """The help ``farmtable --help`` prints from a 80+ column terminal, as the fast path keeps it."""
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        app(args=["--help"], prog_name="farmtable", standalone_mode=False)
    return buf.getvalue()


if __name__ == "__main__":  # python -m farmtable.cli.entry: refresh the kept help text
    import json
    from pathlib import Path

    target = Path(__file__).with_name("help_text.py")
    target.write_text(
        '"""What ``farmtable --help`` prints (kept here so it prints without loading typer; refreshed by\n'
        '``python -m farmtable.cli.entry``, and ``tests/cli/test_startup.py`` checks it is current)."""\n\n'
        + "HELP = (\n"
        + "".join(
            f"    {json.dumps(line, ensure_ascii=False)}\n" for line in write_help_text().splitlines(keepends=True)
        )
        + ")\n"
    )
    print(f"wrote {target}")
