"""The command line starts light: what ``farmtable --help`` and ``farmtable games`` import (no timings).

The speed itself is measured by ``benchmarks/speed/cli_startup.py``; here we pin the cause: the
heavy libraries stay out of start-up, so a later module-level import that brings them back fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
HEAVY = ("sqlalchemy", "numpy", "pydantic", "farmtable.arena", "farmtable.agents", "markdown_it", "matplotlib")


def _modules_after(argv: list[str], program: str = "-c", columns: int = 200) -> tuple[set[str], str]:
    code = (
        "import io, json, sys, contextlib\n"
        f"sys.argv[0] = {program!r}\n"
        "from farmtable.cli import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    status = main({argv!r})\n"
        "sys.stderr.write(json.dumps([status, buf.getvalue(), sorted(sys.modules)]))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(SRC), COLUMNS=str(columns))
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    status, out, modules = json.loads(done.stderr)
    assert status == 0
    return set(modules), out


@pytest.mark.parametrize("argv", [["--help"], ["games"]])
def test_start_up_imports_nothing_heavy(argv: list[str]) -> None:
    modules, out = _modules_after(argv)
    loaded = [m for m in HEAVY if m in modules]
    assert loaded == [], f"farmtable {' '.join(argv)} imported {loaded}"
    assert out.strip()


def test_games_fast_path_lists_every_game() -> None:
    import farmtable

    _, out = _modules_after(["games"])
    for game_id in farmtable.list_games():
        assert game_id in out
        assert farmtable.get_game(game_id).title in out


def test_help_lists_every_command() -> None:
    _, out = _modules_after(["--help"])
    for command in ("games", "new", "play", "arena", "solo", "bench", "hint", "serve"):
        assert f"  {command} " in out


def test_help_needs_neither_rich_nor_the_game_core() -> None:
    # help is plain click text; rich and the games load when a command that uses them runs
    modules, _ = _modules_after(["--help"])
    assert "rich.console" not in modules
    assert "farmtable.core" not in modules


@pytest.mark.parametrize("columns", [80, 200])
def test_the_kept_help_is_what_typer_prints(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from farmtable.cli.entry import write_help_text
    from farmtable.cli.help_text import HELP

    monkeypatch.setenv("COLUMNS", str(columns))
    assert write_help_text() == HELP, "refresh it: python -m farmtable.cli.entry"


def test_help_from_the_installed_script_prints_without_typer() -> None:
    modules, out = _modules_after(["--help"], program="/usr/local/bin/farmtable")
    from farmtable.cli.help_text import HELP

    assert out == HELP
    assert not any(m == "typer" or m.startswith(("typer.", "click")) for m in modules)


@pytest.mark.parametrize(("program", "columns"), [("/usr/local/bin/farmtable", 60), ("-c", 200)])
def test_help_elsewhere_goes_through_typer(program: str, columns: int) -> None:
    # a narrow terminal wraps help differently; another program name changes the usage line
    modules, out = _modules_after(["--help"], program=program, columns=columns)
    assert "typer" in modules
    assert "Commands:" in out


def test_games_runs_without_typer_or_the_rules() -> None:
    modules, _ = _modules_after(["games"])
    assert "typer" not in modules
    assert not [m for m in modules if m.endswith(".rules")]


def test_the_kept_games_index_is_current() -> None:
    from farmtable.cli.listing import kept_index, live_index

    assert kept_index() == live_index(), "refresh it: python -m farmtable.cli.listing"
