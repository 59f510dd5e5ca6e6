"""Final scoring (the rulebook example), the water tie-break, and the scoring helper."""

from __future__ import annotations

import pytest

import farmtable
from farmtable.core.errors import BadInput
from farmtable.games.farmerama.components import BEDS_OF_AREA, COW, HORSE, PIG, SHEEP
from farmtable.games.farmerama.scoring import ScoreInput, score
from tests.games.farmerama.positions import move_good, new, set_display, sow_directly

GAME = farmtable.get_game("farmerama")


def test_rulebook_final_scoring_example_on_a_board() -> None:
    # Rulebook: products 27 + 30 + 42 + 36 = 135; feed tiles 3 + 2 + 2 = 7; 1 star building = 3;
    # animals still on pastures = 8; total 153.
    state = new(2)
    board = state.boards[0]
    board.products = [9, 6, 6, 4]  # DA-FR5 values 3/5/7/9
    for good in ("carrots", "hay", "oats", "corn"):
        move_good(state, 0, good, 0)
    move_good(state, 0, "hay", 3)
    sow_directly(state, 0, BEDS_OF_AREA[4][0], "corn")  # 2 tiles
    sow_directly(state, 0, BEDS_OF_AREA[5][0], "oats")  # 2 tiles
    set_display(state, "OB01", "OB14")
    board.garden.append(state.display.pop(0))
    board.pasture = [3, 2, 1, 0]  # all four animals out on pastures
    sheet = state.result().breakdown[0]
    assert sheet["wool"] + sheet["truffles"] + sheet["milk"] + sheet["riding_lessons"] == 135
    assert (sheet["wool"], sheet["truffles"], sheet["milk"], sheet["riding_lessons"]) == (27, 30, 42, 36)
    assert sheet["feed_tiles"] == 7
    assert sheet["star_buildings"] == 3
    assert sheet["pasture_animals"] == 8
    assert state.result().totals[0] == 153


def test_tie_more_water_wins_then_shared() -> None:
    same = ScoreInput([1, 0, 0, 0], 4, 0, [], 2)
    wetter = ScoreInput([1, 0, 0, 0], 4, 0, [], 5)
    assert score([same, wetter]).ranking == [[1], [0]]
    assert score([same, same]).ranking == [[0, 1]]


def test_pasture_animals_count_their_stable_value() -> None:
    sheet = score([ScoreInput([0, 0, 0, 0], 0, 0, [SHEEP, HORSE], 0)]).breakdown[0]
    assert sheet["pasture_animals"] == 1 + 3
    sheet = score([ScoreInput([0, 0, 0, 0], 0, 0, [PIG, COW], 0)]).breakdown[0]
    assert sheet["pasture_animals"] == 2 + 2


EXAMPLE = """
player: Anna
wool: 9
truffles: 6
milk: 6
riding lessons: 4
feed tiles: 7
star buildings: 1
pasture: sheep, pig, cow, horse
water: 2

player: Ben   # same stars, more water: Ben wins the tie
wool: 9
truffles: 6
milk: 6
riding lessons: 4
feed tiles: 7
star buildings: 1
pasture: sheep, pig, cow, horse
water: 3
"""


def test_helper_scores_the_rulebook_example() -> None:
    result = GAME.score_text(EXAMPLE)
    assert result.totals == [153, 153]
    assert result.ranking == [[1], [0]]
    assert GAME.scoring_helper_format and "riding lessons" in GAME.scoring_helper_format


def test_helper_format_example_itself_scores_153() -> None:
    text = GAME.scoring_helper_format or ""
    example = text.split("Example", 1)[1].split("\n", 1)[1]
    assert GAME.score_text(example).totals == [153]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("wool: 3", 1, "player"),
        ("player: A\nwool: x", 2, "whole number"),
        ("player: A\nwool: 13", 2, "at most 12"),
        ("player: A\npasture: sheep, goat", 2, "unknown animal"),
        ("player: A\nmilk: 1\nmilk: 2", 3, "twice"),
        ("player: A\ngold: 1", 2, "unknown key"),
        ("player: A\nno colon here", 2, "key: value"),
    ],
)
def test_helper_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(BadInput, match=words) as info:
        GAME.score_text(text)
    assert info.value.line == line


def test_helper_needs_a_player() -> None:
    with pytest.raises(BadInput, match="no player"):
        GAME.score_text("# nothing\n")
