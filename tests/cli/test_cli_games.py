"""The installed ``farmtable`` command on the real games, run as a user runs it (a subprocess)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

EXE = shutil.which("farmtable", path=str(Path(sys.executable).parent)) or "farmtable"


def farmtable(*args: str, stdin: str = "", home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    if home is not None:
        env["FARMTABLE_HOME"] = str(home)
    return subprocess.run([EXE, *args], input=stdin, capture_output=True, text=True, env=env, timeout=120)


def test_illegal_apply_names_the_rule_and_leaves_the_file_unchanged(tmp_path: Path) -> None:
    save = tmp_path / "ff.json"
    assert farmtable("new", "farmers-finances", "--seed", "7", "-o", str(save)).returncode == 0
    before = save.read_bytes()
    done = farmtable("apply", str(save), "buy animal", "reroll", "buy animal", "reroll", "buy animal")
    assert done.returncode == 1
    assert done.stdout.strip() == (
        "error: illegal move 'buy animal' for player 0: the marketplace has no animal cards left (nothing was saved)"
    )
    assert "Traceback" not in done.stderr and save.read_bytes() == before


def test_a_game_of_farmers_finances_applied_move_by_move_to_the_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """new / legal / apply / score on a saved file: always the first legal move, until the game ends.

    The first moves and the score sheet go through the installed command (a subprocess each); the
    rest of the game goes through the same entry point in this process, since a game is ~150 calls
    and a subprocess costs a Python start-up each."""
    from farmtable.cli import main

    monkeypatch.setenv("COLUMNS", "200")

    def legal_and_apply_first(in_subprocess: bool) -> bool:
        if in_subprocess:
            legal = farmtable("legal", str(save)).stdout
        else:
            assert main(["legal", str(save)]) == 0
            legal = capsys.readouterr().out
        if "The game is over" in legal:
            return False
        first = next(line.split(". ", 1)[1] for line in legal.splitlines() if line.strip().startswith("1."))
        if in_subprocess:
            assert farmtable("apply", str(save), first).returncode == 0
        else:
            assert main(["apply", str(save), first]) == 0
            capsys.readouterr()
        return True

    save = tmp_path / "ff.json"
    farmtable("new", "farmers-finances", "--seed", "3", "-o", str(save))
    for move in range(400):
        if not legal_and_apply_first(in_subprocess=move < 4):
            break
    else:
        pytest.fail("no end after 400 moves")
    sheet = json.loads(farmtable("score", str(save), "--json").stdout)
    assert max(sheet["totals"]) >= 70 and sheet["winners"]


def test_terminal_play_against_the_computer_to_the_score_sheet(tmp_path: Path) -> None:
    """Solo Farmers Finances typed at the prompt: '1' every turn until 70 coins, then the score sheet."""
    done = farmtable("play", "farmers-finances", "--players", "1", "--seed", "5", stdin="1\n" * 300, home=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Game over" in done.stdout and "Score sheet" in done.stdout and "turns" in done.stdout
    assert (tmp_path / "play-farmers-finances.json").exists()


FARMS = """player Lilly
milk 2
P P . . | S . . .
. . {odd} . | S . . .
. . . . | . . . .
. . . . | . . . .
"""


def test_scoring_helper_reads_a_typed_tiny_farms_position(tmp_path: Path) -> None:
    text = tmp_path / "farms.txt"
    text.write_text(
        "player Lilly\nmilk 2\nP P . . | S . . .\n. . . . | S . . .\n. . . . | . . . .\n. . . . | . . . .\n"
    )
    done = farmtable("score", "tiny-farms", str(text), "--json")
    assert done.returncode == 0, done.stdout
    sheet = json.loads(done.stdout)
    # two adjacent pigs 6, two adjacent sheep 2, milk 2, farms 2 vs 2 spaces: no difference
    assert sheet["totals"] == [6 + 2 + 2]


def test_scoring_helper_refuses_an_impossible_position_with_the_line(tmp_path: Path) -> None:
    text = tmp_path / "farms.txt"
    text.write_text(
        "player Lilly\nmilk 2\nP P . . | S . . .\n. . dragon . | S . . .\n. . . . | . . . .\n. . . . | . . . .\n"
    )
    done = farmtable("score", "tiny-farms", str(text))
    assert done.returncode == 1
    assert done.stdout.startswith("error: line 4:") and "dragon" in done.stdout
