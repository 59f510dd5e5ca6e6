"""The readable score sheet (core.sheet) and `farmtable score`: names as column heads, no raw data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import farmtable
from farmtable.cli import app
from farmtable.core.result import Result
from farmtable.core.sheet import score_sheet, sheet_html, sheet_text

RAW = re.compile(r"[\[\]{}]|None|null|tie_break|_")
"""What a readable sheet never shows: list brackets, None/null, snake_case keys."""

FARMERAMA = "player: Anna\nwool: 3\nwater: 2\n\nplayer: Ben\nwool: 3\nwater: 3\n"
FINANCES = "Anna: 72 coins, 1 wheat\nBen: 72 coins, 2 wheat\n"
TINY_FARMS_SOLO_GAME = ("tiny-farms", 1)


def test_columns_are_headed_by_the_names_typed_in_the_helper() -> None:
    sheet = score_sheet(farmtable.get_game("farmerama").score_text(FARMERAMA))
    assert sheet.columns == ["Anna", "Ben"]
    assert sheet.totals == ["27", "27"]
    # the tie in stars is broken by water, and the sheet says so in words
    assert sheet.standing.startswith("Winner: Ben.")
    assert any("more water" in note for note in sheet.notes)
    assert [ln.cells for ln in sheet.lines if ln.label == "Water in the barn (tie-break)"] == [["2", "3"]]


def test_given_names_win_and_unnamed_seats_count_from_one() -> None:
    result = Result([3, 5], [{"a": 3}, {"a": 5}], [[1], [0]])
    assert score_sheet(result).columns == ["Player 1", "Player 2"]
    assert score_sheet(result, ["Ann", "Bo"]).columns == ["Ann", "Bo"]
    assert score_sheet(result).standing == "Winner: Player 2. Ranking: 1st Player 2 5, 2nd Player 1 3"


@pytest.mark.parametrize(
    ("game", "text"),
    [("farmerama", FARMERAMA), ("farmers-finances", FINANCES)],
)
def test_helper_sheets_show_no_raw_data(game: str, text: str) -> None:
    out = sheet_text(score_sheet(farmtable.get_game(game).score_text(text)))
    assert not RAW.search(out), out


@pytest.mark.parametrize("game", ["farmerama", "farmers-finances", "farmini", "tiny-farms", "tiny-towns"])
def test_end_of_game_sheets_show_no_raw_data(game: str) -> None:
    import random

    g = farmtable.get_game(game)
    for players in sorted({1, 2}):
        if players < g.min_players:
            continue
        state = g.new_game(players=players, seed=5)
        rng = random.Random(5)
        while not state.is_over():
            p = state.actors()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
        out = sheet_text(score_sheet(state.result()))
        assert not re.search(r"[\[\]{}]|None|null", out), out
        assert "tie_break" not in out and "monuments" not in out


def test_solo_tiny_farms_sheet_shows_emmas_lines() -> None:
    import random

    g = farmtable.get_game("tiny-farms")
    state = g.new_game(players=1, seed=2)
    rng = random.Random(2)
    while not state.is_over():
        state.apply(0, rng.choice(state.legal_actions(0)))
    result = state.result()
    sheet = score_sheet(result)
    assert sheet.columns[-1] == "Farmer Emma"
    emma = result.details["emma_breakdown"]
    shown = {ln.label: ln.cells[-1] for ln in sheet.lines if ln.cells[-1]}
    assert shown["Cows"] == str(emma["cows"]) and sheet.totals[-1] == str(result.details["emma_total"])


def test_html_escapes_names() -> None:
    result = Result([1], [{"x": 1}], [[0]], {"names": ["<b>Ann</b>"]})
    html = sheet_html(score_sheet(result))
    assert "<b>Ann" not in html and "&lt;b&gt;Ann" in html
    assert score_sheet(result).to_dict()["columns"] == ["<b>Ann</b>"]


def test_farmtable_score_prints_names_as_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "end.txt"
    path.write_text(FARMERAMA, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        app(["score", "farmerama", str(path)])
    out = capsys.readouterr().out
    assert done.value.code in (0, None)
    header = next(line for line in out.splitlines() if "Anna" in line)
    assert "Ben" in header
    assert "Player 0" not in out and "tie_break" not in out and "[" not in out
