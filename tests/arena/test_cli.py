"""The study commands end to end on the toy game (one process, tiny budgets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from farmtable.cli import main
from tests.agents import toy


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_arena_prints_rates_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.sqlite")
    args = ("arena", toy.GAME_ID, "--agents", "greedy,random", "--games", "6", "--seed", "2", "--db", db)
    code, out = run(capsys, *args)
    assert code == 0, out
    assert "win rate" in out and "greedy" in out and "openskill" in out and "Seats" in out
    code, out = run(capsys, *args[:4], "--games", "8", *args[6:])
    assert code == 0 and "resuming: 6 of 8" in out and "8 games stored" in out


def test_arena_three_agents_three_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.sqlite")
    code, out = run(
        capsys, "arena", toy.GAME_ID, "--agents", "greedy,random,ismcts:iters=5", "-n", "3", "--games", "3", "--db", db
    )
    assert code == 0, out
    assert "ismcts:iters=5" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("arena", "nogame", "--agents", "random"), "no game 'nogame'"),
        (("arena", toy.GAME_ID, "--agents", "wizard"), "no agent 'wizard'"),
        (("arena", toy.GAME_ID, "--agents", "random", "-n", "9"), "takes 1–3 players"),
        (("arena", toy.GAME_ID, "--agents", "random", "--backend", "moon"), "no backend 'moon'"),
        (("solo", toy.GAME_ID, "--agent", "ismcts:iters=-2"), "iters must be"),
        (("report", "missing.sqlite"), "no such file"),
    ],
)
def test_errors_are_one_line(
    args: tuple[str, ...],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(capsys, *args)
    assert code == 1 and message in out and out.count("\n") == 1, out


def test_solo_prints_the_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "solo", toy.GAME_ID, "--agent", "greedy", "--games", "10")
    assert code == 0, out
    assert "median" in out and "10 games" in out


def test_report_writes_html_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "r.sqlite")
    assert run(capsys, "arena", toy.GAME_ID, "--agents", "greedy,random", "--games", "4", "--db", db)[0] == 0
    assert run(capsys, "solo", toy.GAME_ID, "--games", "4", "--db", db)[0] == 0
    code, out = run(capsys, "report", db, "-o", str(tmp_path / "rep"))
    assert code == 0, out
    page = (tmp_path / "rep" / "index.html").read_text()
    pngs = sorted(p.name for p in (tmp_path / "rep").glob("*.png"))
    assert len(pngs) == 6, pngs
    assert all(name in page for name in pngs)
    assert "greedy" in page and "win rate" in page


def test_hint_advises_a_legal_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = toy.ToyState.game.new_game(players=2, seed=3)
    path = tmp_path / "game.json"
    path.write_text(state.to_json())
    code, out = run(capsys, "hint", str(path), "--iters", "50")
    assert code == 0, out
    assert "The Expert AI would play" in out and "est. win rate" in out
    assert any(str(a) in out for a in state.legal_actions(state.actors()[0]))
    code, out = run(capsys, "hint", str(path), "--as", "1")
    assert code == 1 and "player 1 has no decision now" in out


def test_bench_measures_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "bench", toy.GAME_ID, "--seconds", "0.1", "--iters", "5")
    assert code == 0, out
    assert "decisions" in out and "ismcts" in out and toy.GAME_ID in out


def test_agent_lists_keep_parameters_with_their_spec() -> None:
    from farmtable.cli.study import split_agents

    assert split_agents("ismcts:iters=200,depth=5,greedy") == ["ismcts:iters=200,depth=5", "greedy"]
    assert split_agents("greedy, random;ismcts:c=1,iters=3") == ["greedy", "random", "ismcts:c=1,iters=3"]
    assert split_agents(" , ") == []
