"""The command line, run for real in-process on the toy game (registered for the test) and on files on disk."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from farmtable.cli import main
from farmtable.core import registry
from tests.toygame import RACE


@pytest.fixture(autouse=True)
def race_registered(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """Register the toy game and keep farmtable's data folder inside the test's temporary folder."""
    registry.list_games()  # load the real games first, so the toy game is only added
    monkeypatch.setitem(registry._GAMES, "race", RACE)
    monkeypatch.setenv("FARMTABLE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "200")
    yield


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_new_show_legal_apply_score(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    assert run(capsys, "new", "race", "--players", "2", "--seed", "3", "-o", str(save))[0] == 0
    code, out = run(capsys, "legal", str(save))
    assert code == 0 and "player 0: 3 legal moves" in out and "2. add 2" in out
    code, out = run(capsys, "apply", str(save), "add 2", "add 2")
    assert code == 0 and "2 move(s) applied" in out and "To decide: player 0" in out
    assert json.loads(save.read_text())["state"]["pile"] == 4
    code, out = run(capsys, "show", str(save), "--as", "1")
    assert code == 0 and '"pile": 4' in out
    code, out = run(capsys, "score", str(save), "--json")
    assert code == 0 and json.loads(out)["totals"] == [0, 0]


def test_illegal_apply_names_the_rule_and_leaves_the_file_unchanged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    save = tmp_path / "g.json"
    run(capsys, "new", "race", "--seed", "3", "-o", str(save))
    before = save.read_bytes()
    code, out = run(capsys, "apply", str(save), "add 1", "add 7")
    assert code == 1
    assert out.strip().splitlines() == [
        "error: illegal move 'add 7' for player 1: 'add 7' is not a legal move now; "
        "legal moves: add 1, add 2, roll (nothing was saved)"
    ]
    assert save.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("new", "nope"), "error: no game 'nope'; the games are:"),
        (("new", "race", "--players", "9"), "error: Race to Ten takes 1–3 players, not 9"),
        (("new", "race", "--variant", "x"), "error: Race to Ten has no variant 'x'; its variants: short"),
        (("new", "race", "--option", "speed=3"), "error: Race to Ten takes no options: speed"),
        (("show", "missing.json"), "error: no such file: missing.json"),
        (("frobnicate",), "error: No such command 'frobnicate'"),
    ],
)
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    code, out = run(capsys, *args)
    assert code != 0
    assert len(out.strip().splitlines()) == 1 and out.startswith(message), out


def test_corrupt_save_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"farmtable": 1, "game": "race", "state": {"players": 2}}')
    code, out = run(capsys, "show", str(bad))
    assert code == 1 and out.strip() == "error: the saved Race to Ten game is damaged: missing field 'rng'"


def test_play_against_an_agent_with_undo_save_and_quit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "auto.json"
    copy = tmp_path / "copy.json"
    typed = ["help", "add 7", "9", "undo", "1", f"save {copy}", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    code, out = run(capsys, "play", "race", "--players", "2", "--seat", "1=random", "--seed", "1", "--save", str(save))
    assert code == 0
    assert "Not allowed: 'add 7' is not a legal move now" in out
    assert "There is no move 9: choose 1 to 3." in out
    assert "cannot undo: nothing to undo" in out
    assert "Player 1 (random):" in out
    # the console wraps a long save path (pytest-xdist's are long): compare without the line breaks
    assert f"Saved to {save}; resume with: farmtable play --load {save}".replace(" ", "") in "".join(out.split())
    saved = json.loads(save.read_text())
    assert saved["state"]["pile"] >= 1 and copy.exists()


def test_play_to_the_end_prints_the_score_sheet(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n" * 20))
    code, out = run(capsys, "play", "race", "--seat", "1=random", "--seed", "4", "--save", str(tmp_path / "a.json"))
    assert code == 0 and "Game over" in out and "Score sheet" in out and "Winner:" in out


def test_undo_in_play_takes_back_a_decision_before_anyone_else_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "hot.json"
    # two people at one keyboard: player 0 adds 2, player 1 undoes nothing (not theirs), ...
    typed = ["add 2", "undo", "add 1", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    code, out = run(capsys, "play", "race", "--seat", "1=human", "--seed", "1", "--save", str(save))
    assert code == 0
    assert "the last decision was player 0's: you can only undo your own" in out
    assert json.loads(save.read_text())["state"]["pile"] == 3


def test_play_resumes_from_a_save(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "g.json"
    run(capsys, "new", "race", "--seed", "3", "-o", str(save))
    run(capsys, "apply", str(save), "add 2", "add 2")
    monkeypatch.setattr("sys.stdin", io.StringIO("board\nquit\n"))
    code, out = run(capsys, "play", "--load", str(save), "--seat", "1=human")
    assert code == 0 and '"pile": 4' in out


def test_hint_in_play_shows_what_ismcts_would_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint 60\nquit\n"))
    code, out = run(capsys, "play", "race", "--seat", "1=random", "--seed", "2", "--save", str(tmp_path / "h.json"))
    assert code == 0
    hinted = [line.removeprefix("You>").split("(")[0].strip() for line in out.splitlines() if "est. win" in line]
    assert sorted(hinted) == ["add 1", "add 2", "roll"]
