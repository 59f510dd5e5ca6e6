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


def _modules_after(argv: list[str]) -> tuple[set[str], str]:
    code = (
        "import io, json, sys, contextlib\n"
        "from farmtable.cli import main\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n"
        f"    status = main({argv!r})\n"
        "sys.stderr.write(json.dumps([status, buf.getvalue(), sorted(sys.modules)]))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(SRC), COLUMNS="200")
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
